import { keptAnswer } from '../common/kept-answers';
import { cutValue, ownCopy } from '../common/user-agent';

export {
  AGENT_READ_MAX,
  type Agent,
  cutValue,
  MAX_VALUE_LENGTH,
  ownCopy,
  parseAgent,
  SEP,
} from '../common/user-agent';

/** Hours and days as whole numbers since the epoch (UTC): how the statistics tables key time. */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
export const hourOf = (ms: number) => Math.floor(ms / HOUR_MS);
export const dayOfHour = (hour: number) => Math.floor(hour / 24);

/** The dimensions counted per day; `visitors` are counted per hour from the day's hashes. */
export const DIMENSIONS = ['referrer', 'country', 'browser', 'os', 'device', 'target'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** Values per dimension, short and day; more distinct values are counted as `other`. */
export const VALUE_CAP = 100;
export const OTHER = 'other';
/** How many referrers' hosts are kept (then they are dropped all at once). */
export const REFERRER_HOSTS_MAX = 1_000;
/** Longer referrers are parsed each time: the kept hosts take at most about 1 MB. */
const REFERRER_KEPT_MAX = 512;
const referrerHosts = new Map<string, string>();

/**
 * The referrer's host, lower case and without `www.`; `direct` without a (readable) referrer.
 * Never the path or query. Kept for the referrers seen lately (a URL parse costs about a
 * microsecond, and a few pages send most of a short's visitors).
 */
export function referrerHost(referer: string | undefined): string {
  if (!referer) return 'direct';
  if (referer.length > REFERRER_KEPT_MAX) return parseReferrerHost(referer);
  return keptAnswer(referrerHosts, REFERRER_HOSTS_MAX, referer, parseReferrerHost);
}

function parseReferrerHost(referer: string): string {
  try {
    const url = new URL(referer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'direct';
    const host = url.hostname.toLowerCase().replace(/^www\./, '');
    // The host is a slice of the whole referrer (the URL's text): a copy keeps only the host.
    return host ? ownCopy(cutValue(host)) : 'direct';
  } catch {
    return 'direct';
  }
}

/** An ISO 3166 alpha-2 code from a header or the database, else `unknown`. */
export function countryCode(raw: string | undefined | null): string {
  const v = raw?.trim().toUpperCase();
  return v && /^[A-Z]{2}$/.test(v) && v !== 'XX' && v !== 'T1' ? v : 'unknown';
}
