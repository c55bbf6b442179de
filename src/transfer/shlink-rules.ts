import type { RedirectRule, RuleCondition } from '../shared/redirect-rules';

/**
 * Shlink's redirect rules (its API's `GET /short-urls/{code}/redirect-rules` answer, or its list of
 * rules): `{redirectRules: [{longUrl, priority, conditions: [{type, matchKey, matchValue}]}]}`.
 * Read where they map onto ours, in Shlink's order of priority; a rule with a condition that has no
 * counterpart here (an IP address, a city, a query parameter without a value, ChromeOS) is left
 * out, because a rule without it would send more visitors than its owner meant to.
 */
export function isShlinkRules(parsed: unknown): boolean {
  const list = shlinkList(parsed);
  return list !== null && list.every((r) => isObject(r) && 'longUrl' in r);
}

export function fromShlinkRules(parsed: unknown): RedirectRule[] {
  const list = shlinkList(parsed) ?? [];
  const rules = list
    .filter(isObject)
    .map((r, index) => ({ r, index, priority: Number(r.priority) }))
    .sort(
      (a, b) =>
        (Number.isFinite(a.priority) ? a.priority : Infinity) -
          (Number.isFinite(b.priority) ? b.priority : Infinity) || a.index - b.index,
    );
  const out: RedirectRule[] = [];
  for (const { r } of rules) {
    if (typeof r.longUrl !== 'string' || !Array.isArray(r.conditions)) continue;
    const conditions = r.conditions.map(condition);
    if (conditions.length === 0 || conditions.some((c) => c === null)) continue;
    out.push({ conditions: conditions as RuleCondition[], url: r.longUrl });
  }
  return out;
}

const SHLINK_DEVICES: Record<string, RuleCondition> = {
  android: { type: 'os', value: 'android' },
  ios: { type: 'os', value: 'ios' },
  windows: { type: 'os', value: 'windows' },
  macos: { type: 'os', value: 'macos' },
  linux: { type: 'os', value: 'linux' },
  desktop: { type: 'device', value: 'desktop' },
  mobile: { type: 'device', value: 'mobile' },
  tablet: { type: 'device', value: 'tablet' },
};

function condition(c: unknown): RuleCondition | null {
  if (!isObject(c) || typeof c.type !== 'string' || typeof c.matchValue !== 'string') return null;
  const value = c.matchValue;
  switch (c.type) {
    case 'device':
      return SHLINK_DEVICES[value.toLowerCase()] ?? null;
    case 'language':
      return { type: 'language', value };
    case 'geolocation-country-code':
      return { type: 'country', value };
    case 'query-param':
      return typeof c.matchKey === 'string' && c.matchKey
        ? { type: 'query', value: `${c.matchKey}=${value}` }
        : null;
    default:
      return null;
  }
}

function shlinkList(parsed: unknown): unknown[] | null {
  if (Array.isArray(parsed)) return parsed.length > 0 ? parsed : null;
  if (isObject(parsed) && Array.isArray(parsed.redirectRules)) return parsed.redirectRules;
  return null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
