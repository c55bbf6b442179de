import { useT, type I18n } from './context';
import { webhooks as de } from './de/webhooks';
import { webhooks as en } from './en/webhooks';

/** The webhooks' words (the account's and the team's webhooks, the delivery log). */
export type WebhookMessages = typeof de;

/**
 * The webhooks' area of the catalogue, in the active language. It is not part of the catalogue
 * every page loads (i18n/de/index.ts): only the webhooks' views, which are lazy chunks, bring it,
 * so the first visit stays under its budget (test/browser/first-visit-weight.spec.ts).
 */
export function useWebhooksT(): I18n & { wm: WebhookMessages } {
  const i18n = useT();
  return { ...i18n, wm: i18n.lang === 'en' ? en : de };
}
