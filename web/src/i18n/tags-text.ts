import { useT, type I18n } from './context';
import { currentLanguage } from './current';
import { tags as de } from './de/tags';
import { tags as en } from './en/tags';
import type { Catalogue } from './text';

/**
 * The tags' words (tag input, chips, the list's tag filter, bulk edits, a tag's statistics): the
 * shape of the German area, placeholders checked (like `Messages`).
 */
export type TagMessages = Catalogue<typeof de>;

/** Both languages of the area (the catalogue tests compare them). */
export const TAG_CATALOGUES: { readonly de: TagMessages; readonly en: TagMessages } = { de, en };

/**
 * The tags' area of the catalogue, in the active language. Like the webhooks' words
 * (webhooks-text.ts) it is not part of the catalogue every page loads (i18n/de/index.ts): only the
 * views that use it (the own list, a tag's statistics, the tag input) bring it, so the first visit
 * of the start page and the login page stays under its budget.
 */
export function useTagsT(): I18n & { tm: TagMessages } {
  const i18n = useT();
  return { ...i18n, tm: i18n.lang === 'en' ? en : de };
}

/** The same outside React (a column's label, read while the table renders). */
export function tagsMsg(): TagMessages {
  return currentLanguage() === 'en' ? en : de;
}
