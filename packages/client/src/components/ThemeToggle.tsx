import { useState } from 'react';
import { currentTheme, rememberTheme } from '../lib/theme';
import './ThemeToggle.css';

/** Dark mode on/off; remembered in the browser (follows the system until first used). */
export function ThemeToggle({ className = 'icon-button theme-toggle' }: { className?: string }) {
  const [theme, setTheme] = useState(currentTheme);
  return (
    <button
      type="button"
      className={className}
      aria-pressed={theme === 'dark'}
      aria-label="Dark mode"
      title="Dark mode"
      onClick={() => {
        const next = theme === 'dark' ? 'light' : 'dark';
        rememberTheme(next);
        setTheme(next);
      }}
    >
      <span aria-hidden="true">{theme === 'dark' ? '☀' : '☾'}</span>
    </button>
  );
}
