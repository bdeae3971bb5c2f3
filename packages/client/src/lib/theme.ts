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
