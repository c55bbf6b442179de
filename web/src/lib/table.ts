import { cutUsername } from './nav';

/** SPEC §9: default page size 20; options 10, 20, 35, 50, 100, 250; search debounce 500 ms. */
export const PAGE_SIZES = [10, 20, 35, 50, 100, 250] as const;
export const DEFAULT_PAGE_SIZE = 20;
export const SEARCH_DEBOUNCE_MS = 500;
/** SPEC §2: the page bar shows 2 sibling pages on each side of the current one. */
export const PAGE_SIBLINGS = 2;
/** SPEC §9: long urls are cut after 100 characters. */
export const URL_CUT_OFF = 100;
export const USERNAME_CUT_OFF = 20;

export type ShortColumn =
  'id' | 'name' | 'code' | 'url' | 'maxUses' | 'dangers' | 'createdAt' | 'expireAt';
export const SHORT_COLUMNS: readonly ShortColumn[] = [
  'id',
  'name',
  'code',
  'url',
  'maxUses',
  'dangers',
  'createdAt',
  'expireAt',
];
/** SPEC §2: ID, maxUses and dangers are hidden by default. */
export const DEFAULT_HIDDEN: readonly ShortColumn[] = ['id', 'maxUses', 'dangers'];

export function defaultVisibleColumns(): ShortColumn[] {
  return SHORT_COLUMNS.filter((c) => !DEFAULT_HIDDEN.includes(c));
}

/** SPEC §5: at least one column stays visible — the last visible column cannot be hidden. */
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

/** SPEC §5: the page jump accepts whole numbers from 1 to the page count; anything else is null. */
export function parsePageJump(input: string, pageCount: number): number | null {
  const text = input.trim();
  if (!/^\d+$/.test(text)) return null;
  const n = Number(text);
  return n >= 1 && n <= pageCount ? n : null;
}

/** The page-size selector is shown only with at least 10 entries in total. */
export function showPageSize(totalElements: number): boolean {
  return totalElements >= 10;
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

/** SPEC §5: username display is cut at 20 characters with an ellipsis (same rule as the user menu). */
export function cutName(name: string): string {
  return cutUsername(name, USERNAME_CUT_OFF);
}

export type SortDir = 'asc' | 'desc';
export interface SortState {
  field: ShortColumn;
  dir: SortDir;
}
/** SPEC §7: default sort createdAt desc. */
export const DEFAULT_SORT: SortState = { field: 'createdAt', dir: 'desc' };

/** A click on a column header: a new column sorts ascending, the same column flips direction. */
export function nextSort(current: SortState, field: ShortColumn): SortState {
  if (current.field !== field) return { field, dir: 'asc' };
  return { field, dir: current.dir === 'asc' ? 'desc' : 'asc' };
}

/** The server's `sort` parameter (`field,dir`). */
export function sortParam(s: SortState): string {
  return `${s.field},${s.dir}`;
}
