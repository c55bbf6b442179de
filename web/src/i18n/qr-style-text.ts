import { useT, type I18n } from './context';
import { qrStyle as de } from './de/qr-style';
import { qrStyle as en } from './en/qr-style';
import type { Catalogue } from './text';

/** The QR style's words (the QR dialog's style panel): the German area's shape, placeholders checked. */
export type QrStyleMessages = Catalogue<typeof de>;

/** Both languages of the area (the catalogue tests compare them). */
export const QR_STYLE_CATALOGUES: { readonly de: QrStyleMessages; readonly en: QrStyleMessages } = {
  de,
  en,
};

/**
 * The QR style's area of the catalogue, in the active language. Like the tags' words
 * (tags-text.ts) it is not part of the catalogue every page loads: only the QR dialog's style
 * panel (a lazy chunk) brings it.
 */
export function useQrStyleT(): I18n & { qm: QrStyleMessages } {
  const i18n = useT();
  return { ...i18n, qm: i18n.lang === 'en' ? en : de };
}
