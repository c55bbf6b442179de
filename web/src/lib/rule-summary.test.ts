import { describe, expect, it } from 'vitest';
import { conditionText, osName, redirectLines, ruleName, shortTarget } from './rule-summary';

describe('the redirects in a few words', () => {
  it('names each condition as a person reads it', () => {
    expect(conditionText({ type: 'os', value: 'macos' })).toBe('macOS');
    expect(conditionText({ type: 'device', value: 'tablet' })).toBe('Tablet');
    expect(conditionText({ type: 'language', value: 'en-GB' })).toBe(
      'Sprache: Englisch (Vereinigtes Königreich)',
    );
    expect(conditionText({ type: 'country', value: 'AT' })).toBe('Land: Österreich');
    expect(conditionText({ type: 'query', value: 'ref=nl' })).toBe('Query-Parameter: ref=nl');
  });

  it('names a rule by its number and conditions', () => {
    expect(ruleName(0, { conditions: [{ type: 'os', value: 'ios' }] })).toBe('Regel 1: iOS');
    expect(ruleName(4)).toBe('Regel 5');
  });

  it('cuts a target to its host and the start of its path', () => {
    expect(shortTarget('https://example.com/angebot-beendet')).toBe('example.com/angebot-beendet');
    expect(shortTarget('https://example.com/')).toBe('example.com');
    const long = shortTarget('https://apps.apple.com/de/app/ein-sehr-langer-name/id1234567890');
    expect(long).toHaveLength(40);
    expect(long).toMatch(/^apps\.apple\.com\/de\/app\/.*…$/);
    // An internationalised host in Unicode, as a person types it.
    expect(shortTarget('https://xn--bcher-kva.example/x')).toBe('bücher.example/x');
  });

  it('lists the rules in order, then the after-expiry target', () => {
    expect(
      redirectLines({
        rules: [
          { conditions: [{ type: 'os', value: 'ios' }], url: 'https://apps.apple.com/app/x' },
          { conditions: [{ type: 'os', value: 'android' }], url: 'https://play.google.com/x' },
        ],
        expiredUrl: 'https://example.com/angebot-beendet',
      }).map((l) => `${l.when} → ${l.target}`),
    ).toEqual([
      'iOS → apps.apple.com/app/x',
      'Android → play.google.com/x',
      'Nach Ablauf → example.com/angebot-beendet',
    ]);
    expect(redirectLines({ rules: [], expiredUrl: null })).toEqual([]);
    expect(redirectLines({})).toEqual([]);
  });

  it('spells the systems the statistics count as the rules do', () => {
    expect(osName('Mac OS')).toBe('macOS');
    expect(osName('macOS')).toBe('macOS');
    expect(osName('Windows')).toBe('Windows');
    expect(osName('Ubuntu')).toBe('Ubuntu');
  });
});
