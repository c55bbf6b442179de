import { api, unwrap, type Schemas } from '../api/client';
import { de, t } from '../i18n/de';

/** At most this many rows per import (the server's limit). */
export const MAX_IMPORT_ROWS = 5000;
/** Rows per request: each stays far below the server's 2 MB body limit, and the bar moves. */
export const IMPORT_CHUNK = 250;

export type ImportField = 'url' | 'code' | 'name' | 'expireAt' | 'maxUses';
export type ImportRow = Record<string, string>;
export type SkippedRow = Schemas['SkippedRowDto'];

/**
 * Column names the server recognises (src/code/import-rows.ts): ours, Shlink, YOURLS, Kutt and
 * Bitly, compared without case, spaces, `_` and `-`. Used for the preview only; the server decides.
 */
const COLUMNS: Record<ImportField, string[]> = {
  url: ['url', 'longUrl', 'long_url', 'target', 'long_link'],
  code: ['code', 'shortCode', 'keyword', 'address', 'custom_url'],
  name: ['name', 'title'],
  expireAt: ['expireAt', 'validUntil', 'expire_in', 'expires_at'],
  maxUses: ['maxUses', 'maxVisits'],
};
const key = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, '');

/** Which field each header becomes (null: ignored); the first column naming a field wins. */
export function mapColumns(headers: readonly string[]): Array<[string, ImportField | null]> {
  const known = new Map<string, ImportField>();
  for (const [field, names] of Object.entries(COLUMNS) as Array<[ImportField, string[]]>) {
    for (const n of names) known.set(key(n), field);
  }
  const taken = new Set<ImportField>();
  return headers.map((h) => {
    const field = known.get(key(h));
    if (!field || taken.has(field)) return [h, null];
    taken.add(field);
    return [h, field];
  });
}

export interface ParsedImport {
  headers: string[];
  rows: ImportRow[];
}

/** Parses a CSV text with a header row like the server (`,` or `;`, quotes, line breaks, BOM). */
export async function parseImportCsv(text: string): Promise<ParsedImport> {
  const { parse } = await import('csv-parse/browser/esm/sync');
  const clean = text.replace(/^\uFEFF/, '');
  const header = clean.slice(0, clean.search(/\r?\n|$/));
  const count = (c: string) => header.split(c).length - 1;
  let headers: string[] = [];
  const rows = parse(clean, {
    columns: (h: string[]) => (headers = h.map((x) => x.trim())),
    delimiter: count(';') > count(',') ? ';' : ',',
    skip_empty_lines: true,
    relax_column_count: true,
    trim: true,
  }) as ImportRow[];
  return { headers, rows };
}

export interface ImportOutcome {
  created: number;
  skipped: SkippedRow[];
}

/**
 * Sends the rows in chunks of IMPORT_CHUNK (`{rows}`), reporting progress; skipped row numbers are
 * made file-wide (from 1). A failed chunk stops the import: what was sent before stays created.
 */
export async function sendImport(
  rows: readonly ImportRow[],
  onProgress: (done: number) => void,
): Promise<ImportOutcome> {
  const outcome: ImportOutcome = { created: 0, skipped: [] };
  for (let start = 0; start < rows.length; start += IMPORT_CHUNK) {
    const chunk = rows.slice(start, start + IMPORT_CHUNK);
    const result = await unwrap(api.POST('/api/code/import', { body: { rows: chunk } }));
    outcome.created += result.created;
    outcome.skipped.push(...result.skipped.map((s) => ({ ...s, row: s.row + start })));
    onProgress(start + chunk.length);
  }
  return outcome;
}

/** The German reason of a skipped row: the create messages, the import's own, else by field. */
export function skippedReason(reason: string): string {
  if (Object.hasOwn(de.create.errors, reason)) return de.create.errors[reason];
  if (Object.hasOwn(de.transfer.reasons, reason)) return de.transfer.reasons[reason];
  const field = /^(\w+):/.exec(reason)?.[1];
  if (field && Object.hasOwn(de.edit.fields, field)) return de.edit.fields[field];
  return t(de.transfer.reasonOther, { detail: reason });
}

/** The skipped rows as a CSV file (row, code, reason in German). */
export function skippedCsv(skipped: readonly SkippedRow[]): string {
  const cell = (v: string | number | null) => {
    const text = v === null ? '' : String(v).replace(/^([=+\-@\t\r])/, "'$1");
    return /[",;\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const lines = skipped.map((s) => [s.row, s.code, skippedReason(s.reason)].map(cell).join(','));
  return (
    [[de.transfer.row, de.transfer.code, de.transfer.reason].join(','), ...lines].join('\r\n') +
    '\r\n'
  );
}
