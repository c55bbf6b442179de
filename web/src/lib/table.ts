import { cutUsername } from './nav';

/**
 * The one set of table helpers (the own-shorts table and the admin tables): page sizes, sorting,
 * the page numbers the server accepts, the page bar, column visibility and cut-offs.
 */

/** Page sizes of every table: 10, 20, 35, 50, 100, 250; 20 by default. */
export const PAGE_SIZES = [10, 20, 35, 50, 100, 250] as const;
export const DEFAULT_PAGE_SIZE = 20;
/** The page bar shows 2 sibling pages on each side of the current one. */
export const PAGE_SIBLINGS = 2;
/** Long urls are cut after 100 characters, user names after 20. */
export const URL_CUT_OFF = 100;
export const USERNAME_CUT_OFF = 20;

export type SortDir = 'asc' | 'desc';
export interface SortState<F extends string = string> {
  field: F;
  dir: SortDir;
}

/**
 * A click on a column header: a new column sorts ascending, the same column flips direction.
 * With `clearable` (the admin tables) a third click on a descending column clears the sort.
 */
export function nextSort<F extends string>(current: SortState<F>, field: F): SortState<F>;
export function nextSort<F extends string>(
  current: SortState<F> | null,
  field: F,
  opts: { clearable: true },
): SortState<F> | null;
export function nextSort<F extends string>(
  current: SortState<F> | null,
  field: F,
  opts: { clearable?: boolean } = {},
): SortState<F> | null {
  if (!current || current.field !== field) return { field, dir: 'asc' };
  if (current.dir === 'asc') return { field, dir: 'desc' };
  return opts.clearable ? null : { field, dir: 'asc' };
}

/** The aria-sort value of a column header. */
export function ariaSort(
  current: SortState | null,
  field: string,
): 'ascending' | 'descending' | 'none' {
  if (!current || current.field !== field) return 'none';
  return current.dir === 'asc' ? 'ascending' : 'descending';
}

/** The server's `sort` parameter (`field,dir`). */
export function sortParam(s: SortState): string {
  return `${s.field},${s.dir}`;
}

/** The paging query of a list endpoint: page from 0, size, one repeated `sort` when sorted. */
export function pageQuery(
  page: number,
  size: number,
  sort: SortState | null,
): { page: number; size: number; sort?: string[] } {
  const q: { page: number; size: number; sort?: string[] } = {
    page: Math.max(0, Math.floor(page)),
    size,
  };
  if (sort) q.sort = [sortParam(sort)];
  return q;
}

/** A page number the server accepts after a change (e.g. the last entry of the last page was deleted). */
export function clampPage(page: number, totalPages: number): number {
  if (totalPages <= 0) return 0;
  return Math.min(Math.max(0, page), totalPages - 1);
}

/** The answer lies past the last page (after deletes): the page to show instead, else null. */
export function pageBeyondEnd(page: number, totalPages: number): number | null {
  return totalPages > 0 && page >= totalPages ? clampPage(page, totalPages) : null;
}

export type PageItem = number | 'ellipsis-start' | 'ellipsis-end';

/**
 * The page bar (1-based page numbers): first page, the current page with `siblings` pages on each
 * side, last page; gaps become ellipses. Empty when there is at most one page (no bar then).
 */
export function pageBar(current: number, total: number, siblings = PAGE_SIBLINGS): PageItem[] {
  if (total <= 1) return [];
  const cur = Math.min(Math.max(1, Math.trunc(current)), total);
  const from = Math.max(1, cur - siblings);
  const to = Math.min(total, cur + siblings);
  const items: PageItem[] = [];
  if (from > 1) items.push(1);
  if (from > 2) items.push(from === 3 ? 2 : 'ellipsis-start');
  for (let p = from; p <= to; p++) items.push(p);
  if (to < total - 1) items.push(to === total - 2 ? total - 1 : 'ellipsis-end');
  if (to < total) items.push(total);
  return items;
}

/** The page jump accepts whole numbers from 1 to the page count; anything else is null. */
export function parsePageJump(input: string, pageCount: number): number | null {
  const text = input.trim();
  if (!/^\d+$/.test(text)) return null;
  const n = Number(text);
  return n >= 1 && n <= pageCount ? n : null;
}

/** The own-shorts page-size selector is shown only with at least 10 entries in total. */
export function showPageSize(totalElements: number): boolean {
  return totalElements >= 10;
}

/** At least one column stays visible: the last visible column cannot be hidden. */
export function canHideColumn(visible: readonly string[], column: string): boolean {
  return !visible.includes(column) || visible.length > 1;
}

/** Shows or hides a column, keeping the table's column order; refuses to hide the last visible one. */
export function toggleColumn<C extends string>(
  all: readonly C[],
  visible: readonly C[],
  column: C,
): C[] {
  if (visible.includes(column)) {
    if (!canHideColumn(visible, column)) return [...visible];
    return visible.filter((c) => c !== column);
  }
  return all.filter((c) => c === column || visible.includes(c));
}

/** Cuts a text after `max` characters with an ellipsis; `cut` says whether it was cut. */
export function cutText(text: string, max: number): { text: string; cut: boolean } {
  const chars = Array.from(text);
  return chars.length > max
    ? { text: `${chars.slice(0, max).join('')}…`, cut: true }
    : { text, cut: false };
}

export function cutUrl(url: string): { text: string; cut: boolean } {
  return cutText(url, URL_CUT_OFF);
}

/** User names are cut at 20 characters with an ellipsis (the same rule as the user menu). */
export function cutName(name: string): string {
  return cutUsername(name, USERNAME_CUT_OFF);
}

/**
 * A url as the list shows it on one line: host and path without the scheme ('example.com/a?b');
 * the list cuts it with an ellipsis (CSS) and names the full url on hover. Text that is no url
 * stays as it is.
 */
export function hostAndPath(url: string): string {
  try {
    const u = new URL(url);
    if (!u.host) return url;
    const path = u.pathname === '/' && !u.search && !u.hash ? '' : u.pathname;
    return `${u.host}${path}${u.search}${u.hash}`;
  } catch {
    return url;
  }
}
