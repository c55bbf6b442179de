import { describe, expect, it } from 'vitest';
import { DEFAULT_SORT, defaultVisibleColumns, SHORT_COLUMNS } from '../components/shorts/columns';
import {
  ariaSort,
  canHideColumn,
  clampPage,
  cutName,
  cutUrl,
  DEFAULT_PAGE_SIZE,
  hostAndPath,
  nextSort,
  pageBar,
  pageBeyondEnd,
  pageQuery,
  PAGE_SIZES,
  parsePageJump,
  showPageSize,
  sortParam,
  toggleColumn,
} from './table';

describe('page bar', () => {
  it('is empty for zero or one page', () => {
    expect(pageBar(1, 0)).toEqual([]);
    expect(pageBar(1, 1)).toEqual([]);
  });
  it('lists every page when they all fit', () => {
    expect(pageBar(1, 2)).toEqual([1, 2]);
    expect(pageBar(3, 5)).toEqual([1, 2, 3, 4, 5]);
  });
  it('shows two siblings on each side, first and last page, ellipses for gaps', () => {
    expect(pageBar(10, 30)).toEqual([1, 'ellipsis-start', 8, 9, 10, 11, 12, 'ellipsis-end', 30]);
  });
  it('at the lower bound', () => {
    expect(pageBar(1, 30)).toEqual([1, 2, 3, 'ellipsis-end', 30]);
    expect(pageBar(4, 30)).toEqual([1, 2, 3, 4, 5, 6, 'ellipsis-end', 30]);
  });
  it('at the upper bound', () => {
    expect(pageBar(30, 30)).toEqual([1, 'ellipsis-start', 28, 29, 30]);
    expect(pageBar(27, 30)).toEqual([1, 'ellipsis-start', 25, 26, 27, 28, 29, 30]);
  });
  it('fills a gap of exactly one page with that page instead of an ellipsis', () => {
    expect(pageBar(5, 30)).toEqual([1, 2, 3, 4, 5, 6, 7, 'ellipsis-end', 30]);
  });
  it('clamps a current page outside the range', () => {
    expect(pageBar(0, 10)).toEqual(pageBar(1, 10));
    expect(pageBar(99, 10)).toEqual(pageBar(10, 10));
  });
  it('honours another sibling count', () => {
    expect(pageBar(10, 30, 1)).toEqual([1, 'ellipsis-start', 9, 10, 11, 'ellipsis-end', 30]);
  });
});

describe('page jump', () => {
  it('accepts 1 to the page count', () => {
    expect(parsePageJump('1', 15)).toBe(1);
    expect(parsePageJump(' 15 ', 15)).toBe(15);
    expect(parsePageJump('7', 15)).toBe(7);
  });
  it('refuses everything else', () => {
    expect(parsePageJump('0', 15)).toBeNull();
    expect(parsePageJump('16', 15)).toBeNull();
    expect(parsePageJump('-1', 15)).toBeNull();
    expect(parsePageJump('2.5', 15)).toBeNull();
    expect(parsePageJump('abc', 15)).toBeNull();
    expect(parsePageJump('', 15)).toBeNull();
    expect(parsePageJump('1', 0)).toBeNull();
  });
});

describe('columns', () => {
  it('hides ID, Max. Aufrufe and Bedrohlichkeit by default (Aufrufe is shown; tags show under the name)', () => {
    expect(defaultVisibleColumns()).toEqual([
      'name',
      'code',
      'url',
      'visits',
      'createdAt',
      'expireAt',
    ]);
  });
  it('the last visible column cannot be hidden', () => {
    expect(canHideColumn(['name'], 'name')).toBe(false);
    expect(canHideColumn(['name', 'code'], 'name')).toBe(true);
    expect(toggleColumn(SHORT_COLUMNS, ['name'], 'name')).toEqual(['name']);
  });
  it('hides and shows keeping the table order', () => {
    expect(toggleColumn(SHORT_COLUMNS, ['name', 'code'], 'code')).toEqual(['name']);
    expect(toggleColumn(SHORT_COLUMNS, ['url', 'code'], 'id')).toEqual(['id', 'code', 'url']);
  });
});

describe('page size and sorting', () => {
  it('offers the sizes 10 … 250 (20 by default) and shows the own-shorts selector from 10 entries', () => {
    expect([...PAGE_SIZES]).toEqual([10, 20, 35, 50, 100, 250]);
    expect(DEFAULT_PAGE_SIZE).toBe(20);
    expect(showPageSize(9)).toBe(false);
    expect(showPageSize(10)).toBe(true);
  });
  it('sorts by createdAt desc by default; a new column ascends, the same column flips', () => {
    expect(sortParam(DEFAULT_SORT)).toBe('createdAt,desc');
    expect(nextSort(DEFAULT_SORT, 'code')).toEqual({ field: 'code', dir: 'asc' });
    expect(nextSort({ field: 'code', dir: 'asc' }, 'code')).toEqual({ field: 'code', dir: 'desc' });
    expect(nextSort({ field: 'code', dir: 'desc' }, 'code')).toEqual({ field: 'code', dir: 'asc' });
  });
});

describe('paging and sorting of the admin tables (the same helpers)', () => {
  it('builds page, size and one sort parameter', () => {
    expect(pageQuery(2, 50, { field: 'createdAt', dir: 'desc' })).toEqual({
      page: 2,
      size: 50,
      sort: ['createdAt,desc'],
    });
    expect(pageQuery(-1, 20, null)).toEqual({ page: 0, size: 20 });
  });
  it('cycles a clearable column asc → desc → unsorted; another column starts asc', () => {
    const a = nextSort(null, 'code', { clearable: true });
    expect(a).toEqual({ field: 'code', dir: 'asc' });
    const b = nextSort(a, 'code', { clearable: true });
    expect(b).toEqual({ field: 'code', dir: 'desc' });
    expect(nextSort(b, 'code', { clearable: true })).toBeNull();
    expect(nextSort(b, 'url', { clearable: true })).toEqual({ field: 'url', dir: 'asc' });
    expect(ariaSort(b, 'code')).toBe('descending');
    expect(ariaSort(a, 'code')).toBe('ascending');
    expect(ariaSort(a, 'url')).toBe('none');
    expect(ariaSort(null, 'url')).toBe('none');
  });
  it('clamps a page past the end to the last page', () => {
    expect(clampPage(5, 3)).toBe(2);
    expect(clampPage(1, 3)).toBe(1);
    expect(clampPage(-1, 3)).toBe(0);
    expect(clampPage(4, 0)).toBe(0);
  });
  it('says which page to show when an answer lies beyond the end', () => {
    expect(pageBeyondEnd(3, 3)).toBe(2);
    expect(pageBeyondEnd(7, 2)).toBe(1);
    expect(pageBeyondEnd(2, 3)).toBeNull();
    // No pages at all (nothing left): page 0 is the empty state, not beyond the end.
    expect(pageBeyondEnd(0, 0)).toBeNull();
    expect(pageBeyondEnd(4, 0)).toBeNull();
  });
});

describe('cut-offs', () => {
  it('cuts urls after 100 characters with an ellipsis', () => {
    const exact = `https://${'a'.repeat(92)}`;
    expect(exact).toHaveLength(100);
    expect(cutUrl(exact)).toEqual({ text: exact, cut: false });
    const long = `${exact}b`;
    expect(cutUrl(long)).toEqual({ text: `${exact}…`, cut: true });
  });
  it('cuts usernames at 20 characters with an ellipsis', () => {
    expect(cutName('a'.repeat(20))).toBe('a'.repeat(20));
    expect(cutName('b'.repeat(21))).toBe(`${'b'.repeat(20)}…`);
  });
});

describe('host and path', () => {
  it('drops the scheme, keeps host, path, query and fragment', () => {
    expect(hostAndPath('https://example.com/a/b?c=1#d')).toBe('example.com/a/b?c=1#d');
    expect(hostAndPath('http://example.com:8080/x')).toBe('example.com:8080/x');
    expect(hostAndPath('https://example.com/')).toBe('example.com');
    expect(hostAndPath('kein link')).toBe('kein link');
  });
});
