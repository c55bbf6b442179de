/**
 * Redirect rules of a short (CONTRACT "Redirect rules"): an ordered list of at most MAX_RULES
 * `{conditions, url}`; a rule matches when all of its 1–MAX_CONDITIONS conditions match, the first
 * match wins, else the short's `url`. Pure TypeScript, shared by the server (the field check, the
 * follow engine) and the web client (the rules editor): the shape, the condition types and their
 * values are written here once. Each rule's `url` is checked as a target URL by the server
 * (src/shorts/field-checks.ts), not here.
 */
import type { ErrorKey, FieldErrorPath } from './error-keys';

/** At most this many rules per short. */
export const MAX_RULES = 10;
/** Conditions per rule: at least one, at most this many. */
export const MAX_CONDITIONS = 5;
/** A condition's value: at most this many characters. */
export const MAX_CONDITION_VALUE_LENGTH = 100;

export const CONDITION_TYPES = ['device', 'os', 'language', 'country', 'query'] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];

/** The devices a `device` condition names (the statistics' device types, without `other`). */
export const RULE_DEVICES = ['desktop', 'mobile', 'tablet'] as const;
export type RuleDevice = (typeof RULE_DEVICES)[number];
/** The operating systems an `os` condition names. */
export const RULE_OSES = ['android', 'ios', 'windows', 'macos', 'linux'] as const;
export type RuleOs = (typeof RULE_OSES)[number];

export interface RuleCondition {
  type: ConditionType;
  value: string;
}

export interface RedirectRule {
  conditions: RuleCondition[];
  url: string;
}

/** `de`, `en-GB`, `zh-Hant-TW`: a primary language subtag and optional subtags (BCP 47 shape). */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,3}$/;
const COUNTRY_CODE = /^[A-Za-z]{2}$/;

/**
 * A condition's value as stored, or why it is refused: devices and systems in lower case, countries
 * in upper case, language tags and query pairs as given (trimmed; a query pair `name=value` needs a
 * name, its value may be empty).
 */
export function normalizeConditionValue(
  type: ConditionType,
  raw: string,
): { value: string } | { error: string } {
  const v = raw.trim();
  if (v.length === 0) return { error: 'must not be empty' };
  if (v.length > MAX_CONDITION_VALUE_LENGTH) {
    return { error: `must be at most ${MAX_CONDITION_VALUE_LENGTH} characters long` };
  }
  switch (type) {
    case 'device': {
      const d = v.toLowerCase();
      return (RULE_DEVICES as readonly string[]).includes(d)
        ? { value: d }
        : { error: `must be one of ${RULE_DEVICES.join(', ')}` };
    }
    case 'os': {
      const o = v.toLowerCase();
      return (RULE_OSES as readonly string[]).includes(o)
        ? { value: o }
        : { error: `must be one of ${RULE_OSES.join(', ')}` };
    }
    case 'language':
      return LANGUAGE_TAG.test(v)
        ? { value: v }
        : { error: 'must be a language tag such as de or en-GB' };
    case 'country':
      return COUNTRY_CODE.test(v)
        ? { value: v.toUpperCase() }
        : { error: 'must be an ISO 3166 alpha-2 country code such as DE' };
    case 'query': {
      const at = v.indexOf('=');
      return at > 0 ? { value: v } : { error: 'must be a pair name=value' };
    }
  }
}

/**
 * Why a list of rules is refused: a sentence naming the rule (from 1), its stable key and, when it
 * is about one rule or condition, where it is in the list (`[2]`, `[2, 'conditions', 0]`; from 0).
 */
export interface RulesProblem {
  error: string;
  key: ErrorKey;
  path?: FieldErrorPath;
}

/** How a refusal's sentence names a rule (index from 0): `rule 3`. */
export const ruleAt = (index: number): string => `rule ${index + 1}`;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const onlyKeys = (o: Record<string, unknown>, keys: readonly string[]) =>
  Object.keys(o).every((k) => keys.includes(k));

/**
 * The shape of a list of rules (everything but the check of each rule's url as a target): a list
 * of at most MAX_RULES objects `{conditions, url}`, each with 1–MAX_CONDITIONS conditions
 * `{type, value}` of a known type and a valid value, and a url text. No other properties. Answers
 * the rules with their values normalised (the urls still as given), or the first problem.
 */
export function parseRulesShape(input: unknown): { rules: RedirectRule[] } | RulesProblem {
  if (!Array.isArray(input)) return { error: 'must be a list of rules', key: 'rules_invalid' };
  if (input.length > MAX_RULES) {
    return { error: `at most ${MAX_RULES} rules`, key: 'rules_too_many' };
  }
  const rules: RedirectRule[] = [];
  for (const [i, rule] of input.entries()) {
    const ruleProblem = (error: string, key: ErrorKey): RulesProblem => ({
      error: `${ruleAt(i)}: ${error}`,
      key,
      path: [i],
    });
    if (!isObject(rule) || !onlyKeys(rule, ['conditions', 'url'])) {
      return ruleProblem('must be an object {conditions, url}', 'rules_invalid');
    }
    if (typeof rule.url !== 'string' || rule.url.trim() === '') {
      return ruleProblem('url must be a non-empty text', 'rule_url_invalid');
    }
    const conditions = rule.conditions;
    if (!Array.isArray(conditions) || conditions.length === 0) {
      return ruleProblem(`conditions must be a list of 1 to ${MAX_CONDITIONS}`, 'rules_invalid');
    }
    if (conditions.length > MAX_CONDITIONS) {
      return ruleProblem(`at most ${MAX_CONDITIONS} conditions`, 'rules_too_many');
    }
    const checked: RuleCondition[] = [];
    for (const [j, c] of conditions.entries()) {
      const conditionProblem = (error: string): RulesProblem => ({
        error: `${ruleAt(i)}, condition ${j + 1}: ${error}`,
        key: 'rule_condition_invalid',
        path: [i, 'conditions', j],
      });
      if (!isObject(c) || !onlyKeys(c, ['type', 'value'])) {
        return conditionProblem('must be an object {type, value}');
      }
      if (typeof c.type !== 'string' || !(CONDITION_TYPES as readonly string[]).includes(c.type)) {
        return conditionProblem(`type must be one of ${CONDITION_TYPES.join(', ')}`);
      }
      if (typeof c.value !== 'string') return conditionProblem('value must be a text');
      const type = c.type as ConditionType;
      const value = normalizeConditionValue(type, c.value);
      if ('error' in value) return conditionProblem(`${type} ${value.error}`);
      checked.push({ type, value: value.value });
    }
    rules.push({ conditions: checked, url: rule.url.trim() });
  }
  return { rules };
}

/** A `target` value of the statistics: `default`, or the number (from 1) of the rule that matched. */
export type TargetName = 'default' | `${number}`;
