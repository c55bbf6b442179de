import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveTheme } from './theme-rule';

describe('theme rule', () => {
  it('a stored choice wins over the OS preference', () => {
    expect(resolveTheme('dark', false)).toEqual({ dark: true, removeStored: false });
    expect(resolveTheme('light', true)).toEqual({ dark: false, removeStored: false });
  });
  it('without a choice the OS preference is used and the stored value removed', () => {
    expect(resolveTheme(null, true)).toEqual({ dark: true, removeStored: true });
    expect(resolveTheme('purple', false)).toEqual({ dark: false, removeStored: true });
  });
});

describe('theme store', () => {
  beforeEach(() => {
    localStorage.clear();
    vi.resetModules();
  });
  it('toggling stores the choice and switches the dark class', async () => {
    window.matchMedia = vi
      .fn()
      .mockReturnValue({ matches: false }) as unknown as typeof window.matchMedia;
    localStorage.setItem('theme', 'bogus');
    const { initTheme, toggleTheme, theme } = await import('../state/theme');
    initTheme();
    expect(localStorage.getItem('theme')).toBeNull();
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    toggleTheme();
    expect(theme.darkMode).toBe(true);
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(document.documentElement.getAttribute('data-bs-theme')).toBe('dark');
  });
});
