import { parseAgent } from '../common/user-agent';
import type { RedirectRule, RuleCondition, RuleDevice, RuleOs } from '../shared/redirect-rules';

/**
 * Which redirect rule a follow takes (CONTRACT "Redirect rules"): the first rule whose conditions
 * all match, else none (the short's `url`). What a condition reads of the request is computed only
 * when a rule asks for it, and at most once per follow:
 * - `device`, `os`: the user agent (ua-parser-js, remembered per user-agent string in an LRU);
 * - `language`: `Accept-Language` as content negotiation reads it, but only the languages the
 *   visitor accepts with a q-value of at least 0.9 (RULE_LANGUAGE_MIN_Q, as Shlink does): a browser
 *   set to English that lists German as a second language (`en-US,en;q=0.9,de;q=0.8`) is not
 *   caught by a German rule. The visitor's language is the most preferred of those (highest
 *   q-value, the earlier on a tie) that some language condition of the short offers, matched by prefix on subtag boundaries (`de` offers `de`,
 *   `de-AT`, `de-CH`; `en-GB` offers `en-GB` only); a language condition matches when it offers
 *   that language. So with rules for `en` and for `de`, a visitor who prefers German gets the `de`
 *   rule even though the `en` rule comes first and English is acceptable to him too.
 * - `country`: the statistics' source (a trusted CDN header, else the offline database);
 * - `query`: the pair `name=value` is among the follow's query parameters (decoded) as written in
 *   the condition.
 */

/** What a rule may read of a follow's request. */
export interface RuleRequest {
  userAgent: string;
  acceptLanguage: string | undefined;
  query: URLSearchParams | undefined;
  /** ISO 3166 alpha-2 (upper case) or undefined; asked at most once. */
  country: () => string | undefined;
}

interface AgentTraits {
  device: RuleDevice | 'other';
  os: RuleOs | 'other';
}

const LINUX_NAMES = new Set(
  [
    'linux',
    'ubuntu',
    'kubuntu',
    'xubuntu',
    'lubuntu',
    'debian',
    'fedora',
    'mint',
    'arch',
    'centos',
    'gentoo',
    'mandriva',
    'mageia',
    'redhat',
    'red hat',
    'suse',
    'opensuse',
    'slackware',
    'zenwalk',
    'pclinuxos',
    'deepin',
    'elementary os',
    'manjaro',
    'knoppix',
    'linpus',
    'linspire',
    'vectorlinux',
    'sabayon',
    'raspbian',
  ].map((n) => n.toLowerCase()),
);

/** An OS family of ua-parser-js's OS name. */
export function osFamily(name: string | undefined): RuleOs | 'other' {
  const n = name?.toLowerCase();
  if (!n) return 'other';
  if (n === 'android' || n === 'android-x86') return 'android';
  if (n === 'ios') return 'ios';
  if (n.startsWith('windows')) return 'windows';
  if (n === 'mac os' || n === 'macos') return 'macos';
  if (LINUX_NAMES.has(n)) return 'linux';
  return 'other';
}

/** Device type and OS family of a user agent (parsed once, shared with the statistics). */
export function agentTraits(userAgent: string): AgentTraits {
  const agent = parseAgent(userAgent);
  return { device: agent.device, os: osFamily(agent.os) };
}

/** At most this many characters and entries of `Accept-Language` are read. */
const MAX_ACCEPT_LANGUAGE = 1000;
const MAX_LANGUAGES = 20;

/** The least q-value of a language a `language` condition considers (Shlink's minQuality). */
export const RULE_LANGUAGE_MIN_Q = 0.9;

/**
 * The accepted language tags (lower case), most preferred first; `*`, q=0 and any q-value below
 * `minQ` left out.
 */
export function acceptedLanguages(header: string | undefined, minQ = 0): string[] {
  if (!header) return [];
  const entries: Array<{ tag: string; q: number; at: number }> = [];
  for (const [at, part] of header.slice(0, MAX_ACCEPT_LANGUAGE).split(',').entries()) {
    if (entries.length >= MAX_LANGUAGES) break;
    const [rawTag, ...params] = part.split(';');
    const tag = rawTag.trim().toLowerCase();
    if (!/^[a-z]{1,8}(?:-[a-z0-9]{1,8})*$/.test(tag)) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m) q = Number(m[1]);
    }
    if (!(q > 0) || q < minQ) continue;
    entries.push({ tag, q: Math.min(q, 1), at });
  }
  return entries.sort((a, b) => b.q - a.q || a.at - b.at).map((e) => e.tag);
}

/** Whether a condition's language (a range) offers a visitor's tag: equal, or a prefix of subtags. */
export function offers(range: string, tag: string): boolean {
  const r = range.toLowerCase();
  return tag === r || tag.startsWith(`${r}-`);
}

/** The languages a short's conditions offer, per rules array (a cached short's: made once). */
const offeredByRules = new WeakMap<readonly RedirectRule[], string[]>();
function offeredLanguages(rules: readonly RedirectRule[]): string[] {
  let list = offeredByRules.get(rules);
  if (!list) {
    list = rules.flatMap((r) =>
      r.conditions.filter((c) => c.type === 'language').map((c) => c.value),
    );
    offeredByRules.set(rules, list);
  }
  return list;
}

/**
 * The index of the rule a follow takes, or -1 (the short's url). Conditions of one rule are all
 * needed; the first rule that matches wins.
 */
export function chooseRule(rules: readonly RedirectRule[], req: RuleRequest): number {
  let agent: AgentTraits | undefined;
  let language: string | null | undefined;
  let country: string | null | undefined;
  const visitorLanguage = (): string | null => {
    if (language !== undefined) return language;
    const accepted = acceptedLanguages(req.acceptLanguage, RULE_LANGUAGE_MIN_Q);
    if (accepted.length === 0) return (language = null);
    const offered = offeredLanguages(rules);
    language = accepted.find((tag) => offered.some((o) => offers(o, tag))) ?? null;
    return language;
  };
  const matches = (c: RuleCondition): boolean => {
    switch (c.type) {
      case 'device':
        return (agent ??= agentTraits(req.userAgent)).device === c.value;
      case 'os':
        return (agent ??= agentTraits(req.userAgent)).os === c.value;
      case 'language': {
        const tag = visitorLanguage();
        return tag !== null && offers(c.value, tag);
      }
      case 'country':
        if (country === undefined) country = req.country()?.toUpperCase() ?? null;
        return country === c.value;
      case 'query': {
        if (!req.query) return false;
        const at = c.value.indexOf('=');
        return req.query.getAll(c.value.slice(0, at)).includes(c.value.slice(at + 1));
      }
      default:
        return false; // a type this version does not know (stored by a newer one)
    }
  };
  return rules.findIndex((r) => r.conditions.length > 0 && r.conditions.every(matches));
}
