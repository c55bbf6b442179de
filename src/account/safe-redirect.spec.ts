import { describe, expect, it } from 'vitest';
import { safeRedirectPath } from './safe-redirect';

describe('safeRedirectPath', () => {
  it('accepts same-origin paths', () => {
    for (const p of ['/', '/shorts', '/s/abc/info?x=1&y=2#top', '/account?show_wizard=true']) {
      expect(safeRedirectPath(p)).toBe(p);
    }
  });

  it('refuses everything that could leave the origin', () => {
    for (const p of [
      '',
      'shorts',
      '//evil.example',
      '/\\evil.example',
      '/x\\y',
      'https://evil.example',
      'javascript:alert(1)',
      '/ evil',
      '/a\tb',
      '/a\nb',
      '/a\u007fb',
      '/' + 'a'.repeat(2048),
      undefined,
      ['/x'],
    ]) {
      expect(safeRedirectPath(p), JSON.stringify(p)).toBeNull();
    }
  });
});
