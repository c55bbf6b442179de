import { describe, expect, it } from 'vitest';
import { QR_CATALOGUES } from './qr-text';
import { catalogueTexts as texts } from './texts';
import { TRANSFER_CATALOGUES } from './transfer-text';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** The areas the first visit does not load (the QR dialog's, export and import): both languages alike. */
describe.each([
  ['qr', QR_CATALOGUES],
  ['transfer', TRANSFER_CATALOGUES],
] as const)('the %s words', (_, catalogues) => {
  it('have the same keys and placeholders in German and English, and differ', () => {
    const german = texts(catalogues.de);
    const english = texts(catalogues.en);
    expect(german.size).toBeGreaterThan(10);
    expect([...english.keys()].sort()).toEqual([...german.keys()].sort());
    const differ = [...german].filter(
      ([path, text]) => placeholders(text).join() !== placeholders(english.get(path) ?? '').join(),
    );
    expect(differ).toEqual([]);
    const same = [...german].filter(([path, text]) => english.get(path) === text).length;
    expect(same).toBeLessThan(german.size / 4);
  });
});
