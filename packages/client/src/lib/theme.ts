import { useSyncExternalStore } from 'react';

/** Colour theme: the system's (prefers-color-scheme) unless the toggle stored one in the browser. */
export type Theme = 'light' | 'dark';
export const THEME_STORAGE_KEY = 'theme';

export function storedTheme(): Theme | null {
  try {
    const value = localStorage.getItem(THEME_STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    return null;
  }
}

export function systemTheme(): Theme {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function currentTheme(): Theme {
  return storedTheme() ?? systemTheme();
}

/** Sets `data-theme` on <html> (the stylesheet's switch); without a stored choice the system decides. */
export function applyTheme(theme: Theme | null = storedTheme()): void {
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}

export function rememberTheme(theme: Theme): void {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // storage unavailable: the choice lasts for this page only
  }
  applyTheme(theme);
}

function subscribeToTheme(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'data-area'] });
  const media = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : undefined;
  media?.addEventListener('change', onChange);
  return () => {
    observer.disconnect();
    media?.removeEventListener('change', onChange);
  };
}

/** The theme in effect, following the toggle and the system: for code that reads the palette (a canvas chart). */
export function useEffectiveTheme(): Theme {
  return useSyncExternalStore(subscribeToTheme, () => (document.documentElement.dataset.theme as Theme | undefined) ?? systemTheme());
}
