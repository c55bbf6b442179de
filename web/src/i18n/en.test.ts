import { describe, expect, it } from 'vitest';
import { de } from './de';
import type { Messages } from './text';
import { en } from './en';
import { catalogueTexts as texts } from './texts';

/** Umlauts, ß or a German function word: a text that reads as German. */
const GERMAN =
  /[äöüßÄÖÜ]|\b(der|die|das|und|ist|nicht|mit|für|ein|eine|einen|zu|von|auf|den|dem|des|wird|bitte|du|dein|deine|noch|jetzt|hier|oder|wenn|nur|alle|anmelden)\b/i;

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('en.ts', () => {
  const german = texts(de);
  const english = texts(en);

  it('has exactly the keys of the German catalogue (arrays of the same length)', () => {
    expect(german.size).toBeGreaterThan(500);
    expect([...english.keys()].sort()).toEqual([...german.keys()].sort());
  });

  it('keeps every placeholder of the German text, and adds none', () => {
    const differ = [...german]
      .filter(
        ([path, text]) =>
          placeholders(text).join() !== placeholders(english.get(path) ?? '').join(),
      )
      .map(([path]) => path);
    expect(differ).toEqual([]);
    // The check sees placeholders at all (a catalogue without any would pass it trivially).
    expect(placeholders(en.infoPage.gone.expired)).toEqual(['code']);
  });

  it('is English: no text that differs between the languages is left in German', () => {
    const same = [...german].filter(([path, text]) => english.get(path) === text).map(([p]) => p);
    // Names, codes and words both languages write alike (URL-Shorter, Code, Admin, Spam, Android,
    // Tablet …) may stay; none of them reads as German (umlauts or German function words).
    const readsGerman = same.filter((p) => GERMAN.test(german.get(p) ?? ''));
    expect(readsGerman).toEqual([]);
    expect(same.length).toBeLessThan(90);
    expect(GERMAN.test(de.nav.login)).toBe(true); // the check sees German at all
    expect(en.nav.login).toBe('Log in');
    expect(en.create.understoodAs).toBe('Understood as: {date}');
  });

  it('is refused by the compiler with a key missing or one too many', () => {
    const navWithoutStart = Object.fromEntries(
      Object.entries(en.nav).filter(([key]) => key !== 'start'),
    ) as Omit<Messages['nav'], 'start'>;
    // @ts-expect-error nav.start is missing
    const missing: Messages = { ...en, nav: navWithoutStart };
    const extra: Messages = {
      ...en,
      // @ts-expect-error nav.startPage is not a key of the German catalogue
      nav: { ...en.nav, startPage: 'Home' },
    };
    expect(missing.nav).not.toHaveProperty('start');
    expect(extra.nav).toHaveProperty('startPage');
  });
});
