import { useT, type I18n } from './context';
import { linkPages as de } from './de/linkPages';
import { linkPages as en } from './en/linkPages';

/** The link pages' words. */
export type LinkPageMessages = typeof de;

/**
 * The link pages' area of the catalogue, in the active language. Not part of the catalogue every
 * page loads: only the lazy link-pages view and the account page bring it (as the webhooks').
 */
export function useLinkPagesT(): I18n & { lp: LinkPageMessages } {
  const i18n = useT();
  return { ...i18n, lp: i18n.lang === 'en' ? en : de };
}
