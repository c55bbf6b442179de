import { useT, type I18n } from './context';
import { currentLanguage } from './current';
import { transfer as de } from './de/transfer';
import { transfer as en } from './en/transfer';
import type { Catalogue } from './text';

/** The words of export and import: the German area's shape, placeholders checked (like `Messages`). */
export type TransferMessages = Catalogue<typeof de>;

/** Both languages of the area (the catalogue tests compare them). */
export const TRANSFER_CATALOGUES: {
  readonly de: TransferMessages;
  readonly en: TransferMessages;
} = { de, en };

/**
 * The export's and import's area of the catalogue, in the active language. Like the tags' words
 * (tags-text.ts) it is not part of the catalogue every page loads (i18n/de/index.ts): only the own
 * list and its import dialog (lazy chunks) bring it, so the first visit stays under its budget.
 */
export function useTransferT(): I18n & { xm: TransferMessages } {
  const i18n = useT();
  return { ...i18n, xm: i18n.lang === 'en' ? en : de };
}

/** The same outside React (lib/import.ts). */
export function transferMsg(): TransferMessages {
  return currentLanguage() === 'en' ? en : de;
}
