import { proxy } from 'valtio';
import { resolveTheme } from '../lib/theme-rule';

export const THEME_KEY = 'theme';
export const theme = proxy({ darkMode: false });

function applyClass(dark: boolean): void {
  const root = document.documentElement;
  root.classList.toggle('dark', dark);
  root.setAttribute('data-bs-theme', dark ? 'dark' : 'light');
}

function osPrefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

export function initTheme(): void {
  const { dark, removeStored } = resolveTheme(localStorage.getItem(THEME_KEY), osPrefersDark());
  if (removeStored) localStorage.removeItem(THEME_KEY);
  theme.darkMode = dark;
  applyClass(dark);
}

/** Stores the new choice and switches the dark class (the footer only offers it with the design cookie). */
export function toggleTheme(): void {
  theme.darkMode = !theme.darkMode;
  localStorage.setItem(THEME_KEY, theme.darkMode ? 'dark' : 'light');
  applyClass(theme.darkMode);
}
