import { useT, type I18n } from './context';
import { preview as de } from './de/preview';
import { preview as en } from './en/preview';
import type { Catalogue } from './text';

/** The social preview section's words: the shape of the German area, placeholders checked. */
export type PreviewMessages = Catalogue<typeof de>;

/** Both languages of the area (the catalogue tests compare them). */
export const PREVIEW_CATALOGUES: { readonly de: PreviewMessages; readonly en: PreviewMessages } = {
  de,
  en,
};

/**
 * The preview's area of the catalogue, in the active language. Like the tags' words
 * (tags-text.ts) it is not part of the catalogue every page loads: only the lazy section brings
 * it, so the first visit of the start page and the login page stays under its budget.
 */
export function usePreviewT(): I18n & { pm: PreviewMessages['preview'] } {
  const i18n = useT();
  return { ...i18n, pm: (i18n.lang === 'en' ? en : de).preview };
}
