import { describe, expect, it } from 'vitest';
import { BadRequestError } from './errors';
import { containsPattern, escapeLike, parsePageRequest, toPage } from './paging';

const opts = {
  sortable: { createdAt: 's.createdAt', code: 's.code' },
  defaultSort: ['createdAt,desc'],
};

describe('parsePageRequest', () => {
  it('defaults: page 0, size 20, default sort', () => {
    expect(parsePageRequest({}, opts)).toEqual({
      page: 0,
      size: 20,
      offset: 0,
      sort: [{ field: 'createdAt', column: 's.createdAt', direction: 'DESC' }],
    });
  });

  it('repeated sort, direction default asc, duplicates ignored, size capped at 250', () => {
    const r = parsePageRequest(
      { page: '2', size: '1000', sort: ['code', 'createdAt,DESC', 'code,desc'] },
      opts,
    );
    expect(r.size).toBe(250);
    expect(r.offset).toBe(500);
    expect(r.sort.map((s) => `${s.field} ${s.direction}`)).toEqual(['code ASC', 'createdAt DESC']);
  });

  it('unknown fields, bad directions and bad numbers are 400', () => {
    for (const q of [
      { sort: 'password,asc' },
      { sort: 'code,up' },
      { sort: 'code,asc,extra' },
      { sort: '__proto__,asc' },
      { page: '-1' },
      { page: '1.5' },
      { size: '0' },
      { size: 'many' },
    ]) {
      expect(() => parsePageRequest(q, opts), JSON.stringify(q)).toThrow(BadRequestError);
    }
  });
});

describe('LIKE escaping', () => {
  it('escapes the escape character and both wildcards', () => {
    expect(escapeLike('50%_off!')).toBe('50!%!_off!!');
    expect(containsPattern('a%')).toBe('%a!%%');
  });
});

describe('toPage', () => {
  it('computes the page fields', () => {
    expect(toPage([1, 2], 7, { page: 1, size: 3 })).toEqual({
      content: [1, 2],
      number: 1,
      numberOfElements: 2,
      size: 3,
      totalElements: 7,
      totalPages: 3,
      first: false,
      last: false,
      empty: false,
    });
    expect(toPage([], 0, { page: 0, size: 20 })).toMatchObject({
      totalPages: 0,
      first: true,
      last: true,
      empty: true,
    });
  });
});
