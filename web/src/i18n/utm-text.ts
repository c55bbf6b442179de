import { useT, type I18n } from './context';
import { utm as de } from './de/utm';
import { utm as en } from './en/utm';
import type { Catalogue } from './text';

/** The UTM words (the forms' UTM section, the templates' panel), placeholders checked. */
export type UtmMessages = Catalogue<typeof de>;

/** Both languages of the area (the catalogue tests compare them). */
export const UTM_CATALOGUES: { readonly de: UtmMessages; readonly en: UtmMessages } = { de, en };

/**
 * The UTM area of the catalogue, in the active language. Like the tags' words (tags-text.ts) it is
 * not part of the catalogue every page loads: only the lazy UTM section and the account page's
 * templates panel bring it, so the first visit stays under its budget.
 */
export function useUtmT(): I18n & { um: UtmMessages } {
  const i18n = useT();
  return { ...i18n, um: i18n.lang === 'en' ? en : de };
}
