import { UTM_FIELDS, utmParam, type UtmField } from '@shared/utm';

/**
 * The UTM parameters of a target URL (CONTRACT "Marketing links", bullet "UTM"). The URL is the one
 * truth: the form's UTM fields are read from its query (readUtm) and written back into it
 * (writeUtm). A write changes only the `utm_*` parameters it names; every other parameter keeps
 * its exact text and place, and the fragment stays.
 */

/** The five values, '' for a parameter the URL does not carry. */
export type UtmValues = Record<UtmField, string>;

export const NO_UTM: UtmValues = { source: '', medium: '', campaign: '', term: '', content: '' };

interface Parts {
  /** Everything before `?` (or before `#` without a query). */
  base: string;
  /** The query's pairs as written (without `?`), empty ones dropped. */
  pairs: string[];
  /** `#…` or ''. */
  hash: string;
}

/** An absolute http(s) URL cut into its parts; null for anything else (typing, no scheme). */
function split(url: string): Parts | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  const hashAt = url.indexOf('#');
  const hash = hashAt < 0 ? '' : url.slice(hashAt);
  const rest = hashAt < 0 ? url : url.slice(0, hashAt);
  const queryAt = rest.indexOf('?');
  const base = queryAt < 0 ? rest : rest.slice(0, queryAt);
  const query = queryAt < 0 ? '' : rest.slice(queryAt + 1);
  return { base, pairs: query.split('&').filter(Boolean), hash };
}

/** A pair's decoded name (`utm_source=x` → `utm_source`). */
function nameOf(pair: string): string {
  return [...new URLSearchParams(pair).keys()][0] ?? '';
}

const FIELD_OF: ReadonlyMap<string, UtmField> = new Map(UTM_FIELDS.map((f) => [utmParam(f), f]));

/** The URL's UTM values (the first of a repeated parameter); null when it is no http(s) URL. */
export function readUtm(url: string): UtmValues | null {
  const parts = split(url.trim());
  if (!parts) return null;
  const query = new URLSearchParams(parts.pairs.join('&'));
  const values = { ...NO_UTM };
  for (const f of UTM_FIELDS) values[f] = query.get(utmParam(f)) ?? '';
  return values;
}

/**
 * The URL with the UTM values of `change` (an empty value removes its parameter): a parameter
 * already there is replaced in place (a repeated one once), a new one is appended after the
 * others in the order source, medium, campaign, term, content. Other parameters and the fragment
 * keep their exact text. Null when `url` is no http(s) URL; `url` itself when nothing changes.
 */
export function writeUtm(url: string, change: Partial<UtmValues>): string | null {
  const parts = split(url.trim());
  if (!parts) return null;
  const before = readUtm(url);
  if (before && UTM_FIELDS.every((f) => change[f] === undefined || change[f] === before[f])) {
    return url;
  }
  const encode = (f: UtmField, v: string) => new URLSearchParams([[utmParam(f), v]]).toString();
  const done = new Set<UtmField>();
  const pairs: string[] = [];
  for (const pair of parts.pairs) {
    const f = FIELD_OF.get(nameOf(pair));
    const next = f === undefined ? undefined : change[f];
    if (f === undefined || next === undefined) {
      pairs.push(pair);
      continue;
    }
    if (!done.has(f) && next !== '') pairs.push(encode(f, next));
    done.add(f);
  }
  for (const f of UTM_FIELDS) {
    const next = change[f];
    if (!done.has(f) && next) pairs.push(encode(f, next));
  }
  return `${parts.base}${pairs.length ? `?${pairs.join('&')}` : ''}${parts.hash}`;
}

/** How many of the five the values hold. */
export function utmCount(values: UtmValues | null): number {
  return values ? UTM_FIELDS.filter((f) => values[f] !== '').length : 0;
}

/** A template's values as the form's (null: ''), to apply all five at once. */
export function templateValues(t: Partial<Record<UtmField, string | null>>): UtmValues {
  const values = { ...NO_UTM };
  for (const f of UTM_FIELDS) values[f] = t[f] ?? '';
  return values;
}
