import { describe, expect, it } from 'vitest';
import { displayHost, displayUrl, scriptsOf } from './idn';

describe('displayUrl', () => {
  it('leaves plain ASCII hosts alone', () => {
    expect(displayUrl('https://example.com/a?b=c')).toEqual({
      unicode: 'https://example.com/a?b=c',
      punycode: null,
    });
  });

  it('shows an IDN host in Unicode when it keeps to one script', () => {
    expect(displayUrl('https://xn--bcher-kva.example/x')).toEqual({
      unicode: 'https://bücher.example/x',
      punycode: null,
    });
    // Cyrillic throughout (host and top-level domain).
    expect(displayUrl('https://xn--e1afmkfd.xn--p1ai/')).toEqual({
      unicode: 'https://пример.рф/',
      punycode: null,
    });
  });

  it('adds the punycode form when the host mixes scripts (Cyrillic that looks Latin)', () => {
    const stored = new URL('https://аррӏе.com/login').href;
    expect(stored).toMatch(/^https:\/\/xn--/);
    expect(displayUrl(stored)).toEqual({ unicode: 'https://аррӏе.com/login', punycode: stored });
  });

  it('counts the scripts of letters only', () => {
    expect([...scriptsOf('bücher-2.example')]).toEqual(['Latin']);
    expect([...scriptsOf('аррӏе.com')].sort()).toEqual(['Cyrillic', 'Latin']);
    expect([...scriptsOf('日本語.ひらがな')]).toEqual(['CJK']);
  });

  it('survives what is not a URL', () => {
    expect(displayUrl('not a url')).toEqual({ unicode: 'not a url', punycode: null });
  });
});

describe('displayHost', () => {
  it('names the host a button sends to: Unicode, or punycode when scripts mix', () => {
    expect(displayHost('https://de.wikipedia.org/wiki/Kurz-URL')).toBe('de.wikipedia.org');
    expect(displayHost(new URL('https://bücher.example/x').href)).toBe('bücher.example');
    const mixed = new URL('https://аррӏе.com/login');
    expect(displayHost(mixed.href)).toBe(mixed.hostname);
    expect(displayHost(mixed.href)).toMatch(/^xn--/);
  });

  it('is null for a hidden or unreadable target', () => {
    expect(displayHost(null)).toBeNull();
    expect(displayHost('not a url')).toBeNull();
  });
});
