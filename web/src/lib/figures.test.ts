import { describe, expect, it } from 'vitest';
import { figureCards, figureValue } from './figures';

describe('start page figures', () => {
  it('shows a rounded-down count with a plus, none as 0', () => {
    expect(figureValue(0)).toBe('0');
    expect(figureValue(7)).toBe('7+');
    expect(figureValue(300)).toBe('300+');
    expect(figureValue(1000)).toBe('1.000+');
    expect(figureValue(2_000_000)).toBe('2.000.000+');
  });

  it("static: the specification's cards", () => {
    expect(figureCards(null).map((c) => c.value)).toEqual([
      '300+ Links',
      '100+ Aufrufe',
      '41+ Nutzer',
    ]);
  });

  it("live: the instance's counts with the same texts; a count under 10 shows no card", () => {
    expect(figureCards({ links: 1000, visits: 50, users: 0 })).toEqual([
      { value: '1.000+ Links', text: 'wurden bereits gekürzt' },
      { value: '50+ Aufrufe', text: 'von gekürzten Links' },
    ]);
    expect(figureCards({ links: 10, visits: 9, users: 40 }).map((c) => c.value)).toEqual([
      '10+ Links',
      '40+ Nutzer',
    ]);
  });

  it('live on a new instance: no cards rather than zeros', () => {
    expect(figureCards({ links: 0, visits: 0, users: 0 })).toEqual([]);
    expect(figureCards({ links: 7, visits: 3, users: 1 })).toEqual([]);
  });
});
