import { describe, expect, it } from 'vitest';
import { joinTags, mergeTags, normalizeTags, splitTags, splitTagText, tagKey } from './tags';

describe('tags', () => {
  it('keeps the first spelling of tags that differ only in case, trimmed, in order', () => {
    expect(normalizeTags(['Herbst', ' herbst ', 'Sale', 'HERBST'])).toEqual({
      tags: ['Herbst', 'Sale'],
    });
    expect(tagKey(' Straße ')).toBe('straße');
  });

  it('refuses empty, too long, commas and other signs; more than 10 distinct tags', () => {
    expect(normalizeTags(['   '])).toEqual({ invalid: '   ' });
    expect(normalizeTags(['a'.repeat(33)])).toEqual({ invalid: 'a'.repeat(33) });
    expect(normalizeTags(['a,b'])).toEqual({ invalid: 'a,b' });
    expect(normalizeTags(['a#b'])).toEqual({ invalid: 'a#b' });
    // 32 letters whose lower case is longer: the key would not fit its column.
    expect(normalizeTags(['İ'.repeat(32)])).toEqual({ invalid: 'İ'.repeat(32) });
    expect(normalizeTags(['İ'.repeat(16)])).toEqual({ tags: ['İ'.repeat(16)] });
    expect(normalizeTags(['Ünïcödé 2026', 'q3_x-y.z', '日本'])).toEqual({
      tags: ['Ünïcödé 2026', 'q3_x-y.z', '日本'],
    });
    const eleven = Array.from({ length: 11 }, (_, i) => `t${i}`);
    expect(normalizeTags(eleven)).toEqual({ tooMany: 11 });
    expect(normalizeTags([...eleven.slice(0, 10), 'T0'])).toEqual({ tags: eleven.slice(0, 10) });
  });

  it('joins and splits the column; merges a bulk edit keeping the short’s spellings', () => {
    expect(joinTags([])).toBeNull();
    expect(splitTags(joinTags(['a b', 'C']))).toEqual(['a b', 'C']);
    expect(splitTags(null)).toEqual([]);
    expect(splitTagText(' a | B;c, ,d ')).toEqual(['a', 'B', 'c', 'd']);
    expect(splitTagText('')).toEqual([]);
    expect(mergeTags(['Herbst', 'Sale'], ['herbst', 'Neu'], ['SALE'])).toEqual(['Herbst', 'Neu']);
  });
});
