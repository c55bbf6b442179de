/**
 * Link pages as server and web client share them (CONTRACT "Marketing links", link pages): a page's
 * bounds, its themes and its public path.
 */

/** The page's colours: light, dark, or the visitor's (`prefers-color-scheme`). */
export const PAGE_THEMES = ['light', 'dark', 'auto'] as const;
export type PageTheme = (typeof PAGE_THEMES)[number];

export const PAGE_TITLE_MAX = 120;
export const PAGE_DESCRIPTION_MAX = 500;
export const PAGE_LABEL_MAX = 120;
/** Links per page at most. */
export const PAGE_LINKS_MAX = 100;
/** Pages per user (own space) or team at most; one more: 409 `quota_exceeded`. */
export const LIMIT_PAGES = 50;

/** A page's public path on the main host. */
export function pagePath(slug: string): string {
  return `/p/${encodeURIComponent(slug)}`;
}
