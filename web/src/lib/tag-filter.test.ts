import { describe, expect, it } from 'vitest';
import { titleFor } from './titles';
import {
  hasTag,
  searchWithTags,
  shortsHref,
  tagOfParam,
  tagsOfSearch,
  tagStatisticsHref,
  withoutTag,
  withTag,
} from './tag-filter';

describe('the tag filter in the address', () => {
  it('reads repeated tag parameters, cleaned, each once (first spelling), valid ones only', () => {
    expect(tagsOfSearch('tag=Herbst&tag=Sale')).toEqual(['Herbst', 'Sale']);
    expect(
      tagsOfSearch('?team=t-1&tag=%20Herbst%20&tag=herbst&tag=a%2Fb&tag=&tag=Gr%C3%BC%C3%9Fe'),
    ).toEqual(['Herbst', 'Grüße']);
    // A space may be written as + (a form's encoding).
    expect(tagsOfSearch('tag=Black+Friday')).toEqual(['Black Friday']);
    expect(tagsOfSearch('team=t-1')).toEqual([]);
    // At most MAX_TAGS.
    const many = Array.from({ length: 12 }, (_, i) => `tag=t${i}`).join('&');
    expect(tagsOfSearch(many)).toHaveLength(10);
  });

  it('writes the tags as repeated parameters and keeps the rest of the address', () => {
    expect(searchWithTags('', ['Herbst', 'Sale'])).toBe('?tag=Herbst&tag=Sale');
    expect(searchWithTags('team=t-1&tag=Alt', ['Neu'])).toBe('?team=t-1&tag=Neu');
    expect(searchWithTags('?tag=Alt', [])).toBe('');
    expect(shortsHref('team=t-1', ['Black Friday', 'Größe'])).toBe(
      '/shorts?team=t-1&tag=Black+Friday&tag=Gr%C3%B6%C3%9Fe',
    );
  });

  it('round-trips: what is written is read back', () => {
    const tags = ['Herbst', 'Black Friday', 'v1.2', 'Größe_2-a'];
    expect(tagsOfSearch(searchWithTags('team=x', tags))).toEqual(tags);
  });

  it('adds and removes tags case-insensitively, never beyond ten', () => {
    expect(withTag(['Herbst'], 'Sale')).toEqual(['Herbst', 'Sale']);
    expect(withTag(['Herbst'], ' HERBST ')).toEqual(['Herbst']);
    expect(withTag(['Herbst'], 'a/b')).toEqual(['Herbst']);
    const ten = Array.from({ length: 10 }, (_, i) => `t${i}`);
    expect(withTag(ten, 'elf')).toEqual(ten);
    expect(withoutTag(['Herbst', 'Sale'], 'herbst')).toEqual(['Sale']);
    expect(hasTag(['Herbst'], 'HERBST')).toBe(true);
    expect(hasTag(['Herbst'], 'Herbs')).toBe(false);
  });

  it('links a tag’s statistics (in a team) and reads the route’s tag back', () => {
    expect(tagStatisticsHref('Black Friday')).toBe('/tags/Black%20Friday/statistics');
    expect(tagStatisticsHref('Größe', 't-1')).toBe('/tags/Gr%C3%B6%C3%9Fe/statistics?team=t-1');
    expect(tagOfParam('Black%20Friday')).toBe('Black Friday');
    // wouter has decoded it already: unchanged.
    expect(tagOfParam('Größe')).toBe('Größe');
    expect(tagOfParam('%E0%A4%A')).toBe('%E0%A4%A');
    expect(titleFor('/tags/Black%20Friday/statistics')).toBe(
      'Statistik des Tags Black Friday – URL-Shorter',
    );
  });
});
