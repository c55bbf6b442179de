export type ThemeChoice = 'dark' | 'light';

/**
 * A stored choice of dark or light wins; with none, the OS preference is used
 * (and a stored value that is not a valid choice is removed).
 */
export function resolveTheme(
  stored: string | null,
  osPrefersDark: boolean,
): { dark: boolean; removeStored: boolean } {
  if (stored === 'dark') return { dark: true, removeStored: false };
  if (stored === 'light') return { dark: false, removeStored: false };
  return { dark: osPrefersDark, removeStored: true };
}
