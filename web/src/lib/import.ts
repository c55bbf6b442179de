import { csvCell } from '@shared/csv-cell';
import { MAX_IMPORT_COLUMNS, MAX_IMPORT_RECORD, MAX_IMPORT_ROWS } from '@shared/limits';
import { mapImportColumns, URL_COLUMN_NAMES, type ImportField } from '@shared/short-fields';
import type { Schemas } from '../api/client';
import { msg } from '../i18n/current';
import { t } from '../i18n/text';
import { transferMsg } from '../i18n/transfer-text';
import { keyText } from './errors';

export { MAX_IMPORT_COLUMNS, MAX_IMPORT_ROWS, type ImportField };

export type ImportRow = Record<string, string>;
export type SkippedRow = Schemas['SkippedRowDto'];

/**
 * Which field each header becomes (null: ignored), by the column names of the field table
 * (`mapImportColumns`, as the server maps them): the first column naming a field wins. Used for
 * the preview; the server decides.
 */
export function mapColumns(headers: readonly string[]): Array<[string, ImportField | null]> {
  const mapping = mapImportColumns(headers);
  const seen = new Set<string>();
  return headers.map((h) => {
    const field = seen.has(h) ? undefined : mapping.get(h);
    seen.add(h);
    return [h, field ?? null];
  });
}

/** The column names an import takes as the url, in German words ('url, longUrl … oder long_link'). */
export function urlColumnNames(): string {
  const names = [...URL_COLUMN_NAMES];
  const last = names.pop();
  return `${names.join(', ')} ${transferMsg().transfer.or} ${last}`;
}

export interface ParsedImport {
  headers: string[];
  rows: ImportRow[];
}

/**
 * Parses a CSV text with a header row like the server (`,` or `;`, quotes, line breaks, BOM; a
 * record at most MAX_IMPORT_RECORD characters long).
 */
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
    max_record_size: MAX_IMPORT_RECORD,
  }) as ImportRow[];
  return { headers, rows };
}

/** Why the server would refuse the file as a whole (the shared limits), or null. */
export function importRefusal(parsed: ParsedImport): string | null {
  if (parsed.headers.length > MAX_IMPORT_COLUMNS)
    return t(transferMsg().transfer.tooManyColumns, { max: MAX_IMPORT_COLUMNS });
  if (parsed.rows.length > MAX_IMPORT_ROWS)
    return t(transferMsg().transfer.tooMany, { max: MAX_IMPORT_ROWS });
  return null;
}

/**
 * The German reason of a skipped row, by its `errorKey`; a key this client does not know (a newer
 * server) shows the server's reason in the general text.
 */
export function skippedReason(s: Pick<SkippedRow, 'errorKey' | 'reason'>): string {
  if (Object.hasOwn(msg.errors, s.errorKey)) return keyText(s.errorKey);
  return t(transferMsg().transfer.reasonOther, { detail: s.reason });
}

/** The skipped rows as a CSV file (row, code, reason in German), cells escaped as our export's. */
export function skippedCsv(skipped: readonly SkippedRow[]): string {
  const header = [
    transferMsg().transfer.row,
    transferMsg().transfer.code,
    transferMsg().transfer.reason,
  ];
  const lines = skipped.map((s) => [s.row, s.code, skippedReason(s)].map(csvCell).join(','));
  return [header.map(csvCell).join(','), ...lines].join('\r\n') + '\r\n';
}
