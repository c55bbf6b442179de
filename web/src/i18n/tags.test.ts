import { describe, expect, it } from 'vitest';
import { TAG_CATALOGUES } from './tags-text';
import { catalogueTexts as texts } from './texts';

/** The client's source files that speak the tags' words (not the tests, not the catalogues). */
const sources = Object.entries(
  import.meta.glob<string>('../**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true }),
)
  .filter(([path]) => !/\.test\.tsx?$|\/i18n\/(de|en)\//.test(path))
  .map(([, text]) => text)
  .join('\n');

/** Umlauts, ß or a German function word: a text that reads as German. */
const GERMAN =
  /[äöüßÄÖÜ„]|\b(der|die|das|und|ist|nicht|mit|für|ein|eine|zu|von|den|dem|wird|du|dein|noch|nur|alle|Links)\b/;
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the tags’ words (i18n/de/tags.ts, en/tags.ts)', () => {
  const german = texts(TAG_CATALOGUES.de);
  const english = texts(TAG_CATALOGUES.en);

  it('has the same keys and placeholders in both languages', () => {
    expect(german.size).toBeGreaterThan(40);
    expect([...english.keys()].sort()).toEqual([...german.keys()].sort());
    const differ = [...german].filter(
      ([path, text]) => placeholders(text).join() !== placeholders(english.get(path) ?? '').join(),
    );
    expect(differ).toEqual([]);
  });

  it('is English where it is English', () => {
    const left = [...english].filter(([, text]) => GERMAN.test(text)).map(([p]) => p);
    expect(left).toEqual([]);
    expect(GERMAN.test(TAG_CATALOGUES.de.tags.bulk.changed.other)).toBe(true); // the check sees German
  });

  it('has no text that no view reads', () => {
    // A text is read as `tm.tags.a.b` (a plural's forms through their parent).
    const unread = [...german.keys()].filter((path) => {
      const parts = path.split('.');
      const key = /^(one|other)$/.test(parts.at(-1) ?? '') ? parts.slice(0, -1) : parts;
      return !sources.includes(`tm.${key.join('.')}`) && !sources.includes(`().${key.join('.')}`);
    });
    expect(unread).toEqual([]);
  });
});
