import { keptAnswer } from '../common/kept-answers';

/**
 * The user-agent tokens of the crawlers that render link cards (CONTRACT "Marketing links",
 * social previews): Slack, Twitter/X, Facebook, LinkedIn, Discord, WhatsApp and Telegram. Other
 * crawlers (Googlebot, Bingbot, …) are no card crawlers: they keep the bot's answer.
 */
export const CARD_AGENT_TOKENS = [
  'Slackbot',
  'Twitterbot',
  'facebookexternalhit',
  'LinkedInBot',
  'Discordbot',
  'WhatsApp',
  'TelegramBot',
] as const;

const CARD_AGENT = new RegExp(CARD_AGENT_TOKENS.join('|'), 'i');

/** How many user agents' answers are kept (then they are dropped all at once). */
const CARD_ANSWERS_MAX = 1_000;
/** Longer user agents are checked each time: the kept answers stay small. */
const CARD_ANSWER_UA_MAX = 512;
const cardAnswers = new Map<string, boolean>();

/**
 * Whether a user agent is a link-card crawler, kept for the user agents seen lately (as
 * isBotAgent). Asked only for a bot's follow of a short with a social preview: other follows
 * never pay for it.
 */
export function isCardAgent(userAgent: string): boolean {
  if (userAgent.length > CARD_ANSWER_UA_MAX) return CARD_AGENT.test(userAgent);
  return keptAnswer(cardAnswers, CARD_ANSWERS_MAX, userAgent, (ua) => CARD_AGENT.test(ua));
}
