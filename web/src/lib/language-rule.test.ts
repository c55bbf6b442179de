import { describe, expect, it } from 'vitest';
import { acceptedLanguage } from '@shared/language';
import { localeOf, resolveLanguage } from './language-rule';

describe('resolveLanguage', () => {
  const base = { switchOn: true, stored: null, browser: [] as string[], fallback: 'de' as const };

  it('with the switch off: the instance default, whatever was stored or preferred', () => {
    expect(resolveLanguage({ ...base, switchOn: false, stored: 'en', browser: ['en-US'] })).toEqual(
      {
        language: 'de',
        removeStored: false,
      },
    );
    expect(
      resolveLanguage({ ...base, switchOn: false, fallback: 'en', browser: ['de'] }).language,
    ).toBe('en');
  });

  it('with the switch on: a stored choice, then the browser (English or German), then the default', () => {
    expect(resolveLanguage({ ...base, stored: 'de', browser: ['en'] }).language).toBe('de');
    expect(resolveLanguage({ ...base, browser: ['fr-FR', 'en-GB', 'de'] }).language).toBe('en');
    expect(resolveLanguage({ ...base, browser: ['de-AT', 'en'] }).language).toBe('de');
    expect(resolveLanguage({ ...base, browser: ['fr', 'it'], fallback: 'en' }).language).toBe('en');
  });

  it('removes a stored value that is no language', () => {
    expect(resolveLanguage({ ...base, stored: 'klingon', browser: ['en'] })).toEqual({
      language: 'en',
      removeStored: true,
    });
  });

  it('formats in the locale of the language', () => {
    expect(localeOf('de')).toBe('de-DE');
    expect(localeOf('en')).toBe('en-US');
  });
});

describe('acceptedLanguage (the pages the server renders itself)', () => {
  it('takes the best-weighted language the product speaks, else the default', () => {
    expect(acceptedLanguage('en-US,en;q=0.9,de;q=0.8', 'de')).toBe('en');
    expect(acceptedLanguage('fr-CH, fr;q=0.9, de;q=0.7, en;q=0.8', 'de')).toBe('en');
    expect(acceptedLanguage('de-DE', 'en')).toBe('de');
    expect(acceptedLanguage('en;q=0, de;q=0.1', 'en')).toBe('de');
    expect(acceptedLanguage('fr', 'en')).toBe('en');
    expect(acceptedLanguage(undefined, 'de')).toBe('de');
    expect(acceptedLanguage('*', 'en')).toBe('en');
  });
});
