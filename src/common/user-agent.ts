import { LRUCache } from 'lru-cache';
import { UAParser } from 'ua-parser-js';

/**
 * A follow's user agent as the statistics keep it and the redirect rules match it (one parse per
 * agent, shared by both), and the string helpers it needs. Statistics re-exports these
 * (statistics/traits.ts).
 */

/** Stored values are cut to this many characters (CONTRACT "Statistics"). */
export const MAX_VALUE_LENGTH = 100;

/** `value` cut to MAX_VALUE_LENGTH characters (code points: never half a surrogate pair). */
export function cutValue(value: string): string {
  if (value.length <= MAX_VALUE_LENGTH) return value;
  return Array.from(value).slice(0, MAX_VALUE_LENGTH).join('');
}

/**
 * A string of its own with the same characters: a slice of a longer string (what `slice`,
 * `replace` and the URL's parts answer) keeps that whole string alive as long as it is kept.
 */
export function ownCopy(s: string): string {
  // Latin-1 where it holds every character (a string of one byte a character, as headers are).
  const encoding = /[\u0100-\uffff]/.test(s) ? 'utf16le' : 'latin1';
  return Buffer.from(s, encoding).toString(encoding);
}

/** Separator of the parts of an aggregate key and of an agent's traits (no header value holds it). */
export const SEP = '\x1f';

export interface Agent {
  browser: string;
  os: string;
  device: 'desktop' | 'mobile' | 'tablet' | 'other';
  /**
   * The three traits as one string (browser, OS and device joined by SEP), made once per parse:
   * what the statistics keep of a follow's user agent (never the agent itself).
   */
  traits: string;
}

/**
 * ua-parser-js reads no further than this many characters of a user agent (its UA_MAX_LENGTH,
 * after leading white space): a longer agent is cut to them before it is parsed or remembered, so
 * that a 16 KB agent costs the parse of 500 characters and the LRU at most 2,000 short keys.
 */
export const AGENT_READ_MAX = 500;

/** User agents parsed lately (statistics and redirect rules share them: one parse per agent). */
const parsedAgents = new LRUCache<string, Agent>({ max: 2000 });

/**
 * Browser family, OS family and device type of a user agent (ua-parser-js 1.x, MIT), remembered
 * per user-agent string (its first AGENT_READ_MAX characters) in an LRU shared by the statistics
 * (parsed when a follow is recorded) and the redirect rules (parsed on a follow only when a rule
 * asks for the device or OS).
 */
export function parseAgent(userAgent: string): Agent {
  // The parser's own cut (white space at the start, then its first 500 characters): same answer.
  const ua =
    userAgent.length > AGENT_READ_MAX
      ? userAgent.replace(/^\s+/, '').slice(0, AGENT_READ_MAX)
      : userAgent;
  const hit = parsedAgents.get(ua);
  if (hit) return hit;
  // A cut is a slice, which keeps the whole agent alive, and so would the names the parser finds
  // in it: the parser reads (and the LRU keeps) a copy of the cut instead.
  const read = ua === userAgent ? ua : ownCopy(ua);
  const r = new UAParser(read).getResult();
  const type = r.device.type;
  const browser = cutValue(r.browser.name ?? 'unknown');
  const os = cutValue(r.os.name ?? 'unknown');
  const device: Agent['device'] =
    type === undefined
      ? r.os.name
        ? 'desktop'
        : 'other'
      : type === 'mobile' || type === 'tablet'
        ? type
        : 'other';
  const agent: Agent = { browser, os, device, traits: [browser, os, device].join(SEP) };
  parsedAgents.set(read, agent);
  return agent;
}
