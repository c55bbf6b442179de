import { useT, type I18n } from './context';
import { qr as de } from './de/qr';
import { qr as en } from './en/qr';
import type { Catalogue } from './text';

/** The QR dialog's words: the German area's shape, placeholders checked (like `Messages`). */
export type QrMessages = Catalogue<typeof de>;

/** Both languages of the area (the catalogue tests compare them). */
export const QR_CATALOGUES: { readonly de: QrMessages; readonly en: QrMessages } = { de, en };

/**
 * The QR dialog's area of the catalogue, in the active language. Like the tags' words
 * (tags-text.ts) it is not part of the catalogue every page loads (i18n/de/index.ts): only the
 * pages with the QR dialog (the info page, the own list), which are lazy chunks, bring it, so the
 * first visit of the start page and the login page stays under its budget.
 */
export function useQrT(): I18n & { qm: QrMessages } {
  const i18n = useT();
  return { ...i18n, qm: i18n.lang === 'en' ? en : de };
}
