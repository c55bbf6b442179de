import { parse } from 'csv-parse/sync';
import { INT_MAX, isStorableDate } from '../common/db-limits';
import { unescapeCell } from './csv-cell';
import type { ShortInput } from './short.service';

/** At most this many rows per import. */
export const MAX_IMPORT_ROWS = 5000;

/**
 * The stable key of each reason an import row is skipped for (beside the English reason), so the
 * web client can say it in the user's language.
 */
export const IMPORT_ERROR_KEYS = [
  'url_missing',
  'url_invalid',
  'url_blacklisted',
  'code_invalid',
  'code_reserved',
  'code_exists',
  'name_invalid',
  'name_too_long',
  'expire_invalid',
  'expire_past',
  'uses_invalid',
  'uses_min',
  'row_invalid',
] as const;
export type ImportErrorKey = (typeof IMPORT_ERROR_KEYS)[number];

/**
 * Column names of our own export and of the exports of Shlink, YOURLS, Kutt and Bitly, compared
 * without case, spaces, `_` and `-` (so `Long URL`, `long_url` and `longUrl` are one name).
 */
const COLUMNS: Record<
  keyof Pick<ShortInput, 'url' | 'code' | 'name' | 'expireAt' | 'maxUses'>,
  string[]
> = {
  url: ['url', 'longUrl', 'long_url', 'target', 'long_link'],
  code: ['code', 'shortCode', 'keyword', 'address', 'custom_url'],
  name: ['name', 'title'],
  expireAt: ['expireAt', 'validUntil', 'expire_in', 'expires_at'],
  maxUses: ['maxUses', 'maxVisits'],
};

const key = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, '');

export type ImportField = keyof typeof COLUMNS;

/** The key of a cell that is neither text nor a number. */
const NOT_TEXT: Record<ImportField, ImportErrorKey> = {
  url: 'url_invalid',
  code: 'code_invalid',
  name: 'name_invalid',
  expireAt: 'expire_invalid',
  maxUses: 'uses_invalid',
};

/** Which field each header names (unknown columns are ignored). */
export function mapColumns(headers: readonly string[]): Map<string, ImportField> {
  const known = new Map<string, ImportField>();
  for (const [field, names] of Object.entries(COLUMNS) as Array<[ImportField, string[]]>) {
    for (const n of names) known.set(key(n), field);
  }
  const mapping = new Map<string, ImportField>();
  const taken = new Set<ImportField>();
  for (const h of headers) {
    const field = known.get(key(h));
    if (field && !taken.has(field)) {
      mapping.set(h, field);
      taken.add(field);
    }
  }
  return mapping;
}

/** The separator of a CSV text: `;` when the header line has more of them than `,`. */
function separatorOf(csv: string): string {
  const header = csv.slice(0, csv.search(/\r?\n|$/));
  const count = (c: string) => header.split(c).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

/** Rows of a CSV text with a header row (quoted fields, separators and newlines in fields, a BOM). */
export function parseCsv(csv: string): Array<Record<string, string>> {
  return parse(csv, {
    bom: true,
    columns: (header: string[]) => header.map((h) => h.trim()),
    delimiter: separatorOf(csv.replace(/^\uFEFF/, '')),
    skip_empty_lines: true,
    relax_column_count: true,
    trim: true,
  }) as Array<Record<string, string>>;
}

const DURATION = /^(\d{1,6})\s*(minute|hour|day|week)s?$/i;
const UNIT_MS: Record<string, number> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 604_800_000,
};

/**
 * An expiry as the exports write it: ISO 8601 (`2027-01-31T12:00:00Z`), SQL style
 * (`2027-01-31 12:00:00`, UTC), German (`31.01.2027` or `31.01.2027 12:00`, UTC), or a duration from
 * now (`2 days`, Kutt). Returns an ISO string, or null when it is none of these.
 */
export function parseExpiry(raw: string, now = Date.now()): string | null {
  const v = raw.trim();
  const duration = DURATION.exec(v);
  if (duration)
    return new Date(now + Number(duration[1]) * UNIT_MS[duration[2].toLowerCase()]).toISOString();
  const german = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:[ ,T]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(v);
  let ms: number;
  if (german) {
    const [, d, m, y, h = '0', min = '0', sec = '0'] = german;
    ms = Date.UTC(Number(y), Number(m) - 1, Number(d), Number(h), Number(min), Number(sec));
    if (new Date(ms).getUTCDate() !== Number(d)) return null; // 31.02.
  } else if (
    /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(v)
  ) {
    const iso = v.replace(' ', 'T');
    ms = Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(iso) || !iso.includes('T') ? iso : `${iso}Z`);
  } else {
    return null;
  }
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** A code as peers export it: Bitly's `custom_url` may be a whole link (`bit.ly/abc`); the last part. */
function codeOf(raw: string): string {
  const v = raw.trim().replace(/\/+$/, '');
  return v.includes('/') ? v.slice(v.lastIndexOf('/') + 1) : v;
}

/** Why a row cannot be taken: the English reason and its stable key. */
export interface RowProblem {
  reason: string;
  errorKey: ImportErrorKey;
}

/**
 * One import row as the create rules take it, or the reason it cannot be (a row is either
 * created or reported). Empty cells count as absent. Cells are taken as CSV cells: the escape
 * of our export is taken back (unescapeCell), so a round trip gives every text back exactly.
 */
export function rowToInput(
  row: Readonly<Record<string, unknown>>,
  mapping: ReadonlyMap<string, ImportField>,
  now = Date.now(),
): { input: ShortInput } | RowProblem {
  const input: ShortInput = {};
  for (const [column, field] of mapping) {
    const raw = row[column];
    if (raw === undefined || raw === null || raw === '') continue;
    const text =
      typeof raw === 'string'
        ? unescapeCell(raw.trim())
        : typeof raw === 'number'
          ? String(raw)
          : null;
    if (text === null)
      return { reason: `${field}: must be text or a number`, errorKey: NOT_TEXT[field] };
    if (text === '') continue;
    switch (field) {
      case 'url':
        input.url = text;
        break;
      case 'code':
        input.code = codeOf(text);
        break;
      case 'name':
        input.name = text;
        break;
      case 'expireAt': {
        const iso = parseExpiry(text, now);
        if (iso === null) return { reason: 'expireAt: not a date', errorKey: 'expire_invalid' };
        if (!isStorableDate(iso))
          return {
            reason: 'expireAt: must be between 1000-01-01 and 9999-12-31 (UTC)',
            errorKey: 'expire_invalid',
          };
        input.expireAt = iso;
        break;
      }
      case 'maxUses': {
        if (!/^-?\d{1,12}$/.test(text))
          return { reason: 'maxUses: must be a whole number', errorKey: 'uses_invalid' };
        const n = Number(text);
        if (n > INT_MAX)
          return {
            reason: `maxUses: must not be greater than ${INT_MAX}`,
            errorKey: 'uses_invalid',
          };
        input.maxUses = n;
        break;
      }
    }
  }
  if (input.url === undefined) return { reason: 'url: missing', errorKey: 'url_missing' };
  return { input };
}
