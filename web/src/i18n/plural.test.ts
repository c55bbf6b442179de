import { describe, expect, it } from 'vitest';
import { de } from './de';
import { en } from './en';
import { pluralForm } from './plural';
import { t } from './text';
import { TRANSFER_CATALOGUES } from './transfer-text';

describe('plural forms', () => {
  it('counts one and many in German and English', () => {
    const total = (n: number) => t(pluralForm(de.shorts.total, n, 'de-DE'), { count: n });
    expect(total(1)).toBe('1 Eintrag');
    expect(total(0)).toBe('0 Einträge');
    expect(total(2)).toBe('2 Einträge');
    expect(t(pluralForm(en.shorts.total, 1, 'en-US'), { count: 1 })).toBe('1 entry');
    expect(t(pluralForm(en.shorts.total, 3, 'en-US'), { count: 3 })).toBe('3 entries');
    expect(t(pluralForm(TRANSFER_CATALOGUES.de.transfer.rows, 1, 'de-DE'), { count: 1 })).toBe(
      '1 Zeile erkannt',
    );
    expect(t(pluralForm(de.create.advancedSet, 2, 'de-DE'), { n: 2 })).toBe('2 Angaben gesetzt');
  });
});
