import type { RedirectRule, RuleCondition, RuleOs } from '@shared/redirect-rules';
import { currentLanguage, msg } from '../i18n/current';
import { t } from '../i18n/text';
import { displayUrl } from './idn';

/**
 * The redirect rules and the after-expiry target in a few words, where the form is not open: the
 * owner's overview ('iOS → apps.apple.com/…', 'Nach Ablauf → example.com/angebot-beendet') and
 * the statistics' targets ('Regel 1: iOS'). The operating systems are spelled one way everywhere
 * (the rules editor, these summaries, the statistics).
 */

/** The operating systems by their names, the same in every language. */
export const OS_NAMES: Readonly<Record<RuleOs, string>> = {
  android: 'Android',
  ios: 'iOS',
  windows: 'Windows',
  macos: 'macOS',
  linux: 'Linux',
};

/**
 * An operating system as the statistics count it (the user agent parser's name, e.g. 'Mac OS')
 * in the rules' spelling ('macOS'); others as they are.
 */
export function osName(name: string): string {
  const key = name.toLowerCase().replace(/\s+/g, '');
  return (OS_NAMES as Readonly<Record<string, string>>)[key] ?? name;
}

function displayName(code: string, type: 'region' | 'language'): string {
  try {
    return new Intl.DisplayNames([currentLanguage()], { type }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** One condition in words: 'Smartphone', 'iOS', 'Sprache: Deutsch', 'Land: Österreich', 'Query-Parameter: ref=nl'. */
export function conditionText(c: RuleCondition): string {
  const typed = (value: string) =>
    t(msg.rules.summary.typed, { type: msg.rules.types[c.type], value });
  switch (c.type) {
    case 'device':
      return (msg.rules.devices as Readonly<Record<string, string>>)[c.value] ?? c.value;
    case 'os':
      return (OS_NAMES as Readonly<Record<string, string>>)[c.value] ?? c.value;
    case 'language':
      return typed(displayName(c.value, 'language'));
    case 'country':
      return typed(displayName(c.value.toUpperCase(), 'region'));
    case 'query':
      return typed(c.value);
  }
}

/** When a rule applies, in words: its conditions joined ('Smartphone und Sprache: Deutsch'). */
export function ruleWhen(rule: Pick<RedirectRule, 'conditions'>): string {
  return rule.conditions.map(conditionText).join(msg.rules.summary.and);
}

/** A rule by its number (from 0) and, when known, its conditions: 'Regel 1: iOS'. */
export function ruleName(index: number, rule?: Pick<RedirectRule, 'conditions'>): string {
  const name = t(msg.rules.rule, { n: index + 1 });
  return rule && rule.conditions.length > 0 ? `${name}: ${ruleWhen(rule)}` : name;
}

/** Longer targets are cut to this many characters. */
export const TARGET_MAX = 40;

/**
 * A target as a summary names it: without scheme, the host in Unicode, cut with '…' after
 * TARGET_MAX characters ('example.com/angebot-beendet', 'apps.apple.com/de/app/…').
 */
export function shortTarget(url: string, max = TARGET_MAX): string {
  const text = displayUrl(url)
    .unicode.replace(/^https?:\/\//i, '')
    .replace(/^([^/?#]+)\/$/, '$1');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** One line of the overview's redirects: what it applies to, and where it leads (cut). */
export interface RedirectLine {
  when: string;
  target: string;
  /** The whole target (the line's title). */
  url: string;
}

/** The overview's redirects of a short: its rules in order, then the after-expiry target. */
export function redirectLines(short: {
  rules?: readonly RedirectRule[];
  expiredUrl?: string | null;
}): RedirectLine[] {
  const lines = (short.rules ?? []).map((rule) => ({
    when: ruleWhen(rule),
    target: shortTarget(rule.url),
    url: rule.url,
  }));
  if (short.expiredUrl) {
    lines.push({
      when: msg.rules.summary.afterExpiry,
      target: shortTarget(short.expiredUrl),
      url: short.expiredUrl,
    });
  }
  return lines;
}
