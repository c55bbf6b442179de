import { toUnicode } from 'punycode/punycode.es6.js';

/** Scripts that look-alike attacks mix; CJK scripts count as one (Japanese mixes them by design). */
const SCRIPTS: Array<[string, RegExp]> = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Georgian', /\p{Script=Georgian}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  [
    'CJK',
    /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}]/u,
  ],
];

/** The scripts of the letters of a (Unicode) host; digits, dots and hyphens have none. */
export function scriptsOf(host: string): Set<string> {
  const found = new Set<string>();
  for (const ch of host) {
    if (!/\p{L}/u.test(ch)) continue;
    found.add(SCRIPTS.find(([, re]) => re.test(ch))?.[0] ?? 'Other');
  }
  return found;
}

export interface DisplayUrl {
  /** The URL with its host in Unicode (as a visitor would type it). */
  unicode: string;
  /** The URL as the browser will really request it, when the host mixes scripts; else null. */
  punycode: string | null;
}

/**
 * How a target URL is shown: an internationalised host (stored as punycode, `xn--…`) in Unicode;
 * when the host mixes scripts (`аррӏе.com`: Cyrillic letters that look Latin), the punycode form as
 * well, so a visitor checking a short sees that it is not the host it looks like.
 */
export function displayUrl(url: string): DisplayUrl {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { unicode: url, punycode: null };
  }
  const ascii = parsed.hostname;
  if (!ascii.split('.').some((label) => label.startsWith('xn--'))) {
    return { unicode: url, punycode: null };
  }
  let host: string;
  try {
    host = toUnicode(ascii);
  } catch {
    return { unicode: url, punycode: null };
  }
  const at = url.indexOf(ascii);
  const unicode = at < 0 ? url : url.slice(0, at) + host + url.slice(at + ascii.length);
  return { unicode, punycode: scriptsOf(host).size > 1 ? url : null };
}

/**
 * The host a visitor is sent to, as a button names it ('Weiter zu …'): in Unicode, or the punycode
 * the browser really requests when the Unicode form mixes scripts; null for no or an unreadable URL.
 */
export function displayHost(url: string | null): string | null {
  if (!url) return null;
  let ascii: string;
  try {
    ascii = new URL(url).hostname;
  } catch {
    return null;
  }
  if (!ascii.split('.').some((label) => label.startsWith('xn--'))) return ascii;
  try {
    const host = toUnicode(ascii);
    return scriptsOf(host).size > 1 ? ascii : host;
  } catch {
    return ascii;
  }
}
