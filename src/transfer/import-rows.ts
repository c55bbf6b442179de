import { fromShlinkRules, isShlinkRules } from './shlink-rules';
import type * as CsvParse from 'csv-parse';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { INT_MAX, isStorableDate } from '../common/db-limits';
import { type ErrorKey, ValidationFailedError } from '../common/errors';
import { unescapeCell } from '../shared/csv-cell';
import { splitTagText } from '../shared/tags';
import { MAX_IMPORT_COLUMNS, MAX_IMPORT_RECORD, MAX_IMPORT_ROWS } from '../shared/limits';
import {
  type FieldType,
  type ImportField,
  SHORT_FIELDS,
  type ShortInput,
} from '../shared/short-fields';

/** Bytes of CSV parsed per turn of the event loop (a few milliseconds of work each). */
const PARSE_SLICE = 8 * 1024;

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const COMMA = 0x2c;
const SEMICOLON = 0x3b;

/**
 * The separator of a CSV text: `;` when the header line has more of them than `,` (only the
 * header's first MAX_IMPORT_RECORD characters are looked at: a longer header is refused anyway).
 */
function separatorOf(csv: string): number {
  let commas = 0;
  let semicolons = 0;
  for (let i = 0; i < csv.length && i <= MAX_IMPORT_RECORD; i++) {
    const c = csv.charCodeAt(i);
    if (c === LF || c === CR) break;
    if (c === COMMA) commas++;
    else if (c === SEMICOLON) semicolons++;
  }
  return semicolons > commas ? SEMICOLON : COMMA;
}

const tooManyRows = (field: 'csv' | 'rows') =>
  new ValidationFailedError({ [field]: `at most ${MAX_IMPORT_ROWS} rows` });

/**
 * Checks the record limits as the bytes arrive, before the parser sees them: at most
 * MAX_IMPORT_COLUMNS cells and MAX_IMPORT_RECORD bytes per record (separators and quotes
 * counted). The parser's own `max_record_size` counts the cells' text only, and a header's cells
 * reach the `columns` function only when the whole header is read, so neither stops a header of a
 * million empty cells early. Quotes are followed as the parser does (`""` toggles twice); a
 * malformed quote that misleads this count is refused by the parser anyway.
 */
function recordGuard(separator: number): (bytes: Uint8Array) => void {
  let quoted = false;
  let cells = 1;
  let length = 0;
  let line = 1;
  return (bytes) => {
    for (let i = 0; i < bytes.length; i++) {
      const c = bytes[i];
      if (c === LF) line++;
      if (c === QUOTE) {
        quoted = !quoted;
      } else if (!quoted && (c === LF || c === CR)) {
        cells = 1;
        length = 0;
        continue;
      } else if (!quoted && c === separator && ++cells > MAX_IMPORT_COLUMNS) {
        throw new ValidationFailedError({
          csv: `at most ${MAX_IMPORT_COLUMNS} columns (line ${line} has more)`,
        });
      }
      if (++length > MAX_IMPORT_RECORD) {
        throw new ValidationFailedError({
          csv: `records must not be longer than ${MAX_IMPORT_RECORD / 1024} KiB (line ${line} is)`,
        });
      }
    }
  };
}

/**
 * Rows of a CSV text with a header row (quoted fields, separators and newlines in fields, a BOM).
 * Parsed a slice at a time with a turn of the event loop between slices, so that other requests
 * are served meanwhile; stops at the first limit passed (MAX_IMPORT_ROWS rows,
 * MAX_IMPORT_COLUMNS columns, MAX_IMPORT_RECORD bytes per record) with a ValidationFailedError
 * for `csv`, as for text that is no CSV.
 */
export async function parseCsv(csv: string): Promise<Array<Record<string, string>>> {
  const bytes = Buffer.from(csv.replace(/^\uFEFF/, ''), 'utf8');
  const separator = separatorOf(csv.replace(/^\uFEFF/, ''));
  const guard = recordGuard(separator);
  const rows: Array<Record<string, string>> = [];
  let failure: unknown;
  // Loaded by the first import (about 0.3 MB of heap otherwise held by every app).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parse } = require('csv-parse') as typeof CsvParse;
  const parser = parse<Record<string, string>>({
    columns: (header: string[]) => header.map((h) => h.trim()),
    delimiter: String.fromCharCode(separator),
    skip_empty_lines: true,
    relax_column_count: true,
    trim: true,
    max_record_size: MAX_IMPORT_RECORD,
    // Records are taken here, not read from the stream: nothing queues, and the row limit stops
    // the parser at the first row too many.
    on_record: (record: Record<string, string>) => {
      if (rows.length >= MAX_IMPORT_ROWS) throw tooManyRows('csv');
      rows.push(record);
      return null;
    },
  });
  parser.on('error', (err) => (failure ??= err));
  try {
    // Byte slices: a character split between two slices is joined again in the parser's field
    // buffer (separators, quotes and line breaks are ASCII, never part of another character).
    for (let at = 0; at < bytes.length && failure === undefined; at += PARSE_SLICE) {
      if (at > 0) await nextTurn();
      const slice = bytes.subarray(at, at + PARSE_SLICE);
      guard(slice);
      await new Promise<void>((resolve) =>
        parser.write(slice, (err) => {
          if (err) failure ??= err;
          resolve();
        }),
      );
    }
    if (failure === undefined) {
      await new Promise<void>((resolve) => {
        parser.once('error', () => resolve());
        parser.end(() => resolve());
      });
    }
  } catch (err) {
    failure ??= err;
  } finally {
    parser.destroy();
  }
  if (failure instanceof ValidationFailedError) throw failure;
  if (failure !== undefined) {
    const message = failure instanceof Error ? failure.message : String(failure);
    throw new ValidationFailedError({ csv: `not readable as CSV (${message})` });
  }
  return rows;
}

/**
 * The limits of `{rows}` that a CSV's records have (at most MAX_IMPORT_ROWS rows, each with at
 * most MAX_IMPORT_COLUMNS keys and MAX_IMPORT_RECORD characters of keys and texts): a
 * ValidationFailedError for `rows` at the first row that passes one. Returns the column names.
 */
export function checkRows(rows: ReadonlyArray<Readonly<Record<string, unknown>>>): string[] {
  if (rows.length > MAX_IMPORT_ROWS) throw tooManyRows('rows');
  const headers = new Set<string>();
  for (const [i, row] of rows.entries()) {
    let keys = 0;
    let length = 0;
    for (const column of Object.keys(row)) {
      if (++keys > MAX_IMPORT_COLUMNS) {
        throw new ValidationFailedError({
          rows: `at most ${MAX_IMPORT_COLUMNS} columns (row ${i + 1} has more)`,
        });
      }
      const value = row[column];
      length +=
        column.length +
        (typeof value === 'string'
          ? value.length
          : typeof value === 'object' && value !== null // rules as a list, a preview or a QR style as an object
            ? JSON.stringify(value).length
            : 0);
      if (length > MAX_IMPORT_RECORD) {
        throw new ValidationFailedError({
          rows: `rows must not be longer than ${MAX_IMPORT_RECORD / 1024} KiB (row ${i + 1} is)`,
        });
      }
      headers.add(column);
    }
  }
  return [...headers];
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

/** The column names of parsed CSV rows (every key that some row has). */
export function columnsOf(rows: ReadonlyArray<Readonly<Record<string, unknown>>>): string[] {
  const headers = new Set<string>();
  for (const row of rows) for (const column of Object.keys(row)) headers.add(column);
  return [...headers];
}

/** Why a row cannot be taken: the English reason and its stable key. */
export interface RowProblem {
  reason: string;
  errorKey: ErrorKey;
}

type CellReading = { value: string | number | unknown[] | object } | { problem: string };

/**
 * How an import reads a cell of each field type (after the export's escape is taken off); the
 * create rules then check the value as for any create.
 */
const CELL_READERS: Record<FieldType, (text: string, now: number) => CellReading> = {
  url: (text) => ({ value: text }),
  text: (text) => ({ value: text }),
  password: (text) => ({ value: text }),
  domain: (text) => ({ value: text }),
  // A team's id (the export's `team` column): the create rules check the importer may write there.
  team: (text) => ({ value: text }),
  // Bitly's `custom_url` may be a whole link (`bit.ly/abc`): the last part.
  code: (text) => {
    const v = text.replace(/\/+$/, '');
    return { value: v.includes('/') ? v.slice(v.lastIndexOf('/') + 1) : v };
  },
  'date-time': (text, now) => {
    const iso = parseExpiry(text, now);
    if (iso === null) return { problem: 'not a date' };
    if (!isStorableDate(iso)) return { problem: 'must be between 1000-01-01 and 9999-12-31 (UTC)' };
    return { value: iso };
  },
  // JSON text, as the export writes it (or Shlink's redirect rules, read where they map); its
  // shape and urls are the create rules' check.
  rules: (text) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { problem: 'must be a JSON list of rules' };
    }
    if (isShlinkRules(parsed)) return { value: fromShlinkRules(parsed) };
    return Array.isArray(parsed) ? { value: parsed } : { problem: 'must be a JSON list of rules' };
  },
  // Ours comma-separated; Shlink's web client `|`-separated (older ones `,`); `;` too. The
  // create rules check each tag and how many there are.
  tags: (text) => ({ value: splitTagText(text) }),
  // JSON text, as the export writes it; its parts are the create rules' check.
  preview: (text) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { problem: 'must be a JSON object {title, description, image}' };
    }
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? { value: parsed }
      : { problem: 'must be a JSON object {title, description, image}' };
  },
  // Ours `fg,bg,ec,margin` (as the export writes it), or a JSON object; the create rules check it.
  'qr-style': (text) => {
    if (text.startsWith('{')) {
      try {
        return { value: JSON.parse(text) as object };
      } catch {
        return { problem: 'must be fg,bg,ec,margin or a JSON object' };
      }
    }
    const [fg, bg, ec, margin, ...rest] = text.split(',').map((p) => p.trim());
    if (rest.length || margin === undefined) return { problem: 'must be fg,bg,ec,margin' };
    return { value: { fg, bg, ec, margin: /^\d{1,2}$/.test(margin) ? Number(margin) : margin } };
  },
  integer: (text) => {
    if (!/^-?\d{1,12}$/.test(text)) return { problem: 'must be a whole number' };
    const n = Number(text);
    if (n > INT_MAX) return { problem: `must not be greater than ${INT_MAX}` };
    return { value: n };
  },
};

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
  const input: Record<string, string | number | unknown[] | object> = {};
  for (const [column, field] of mapping) {
    const spec = SHORT_FIELDS[field];
    const raw = row[column];
    if (raw === undefined || raw === null || raw === '') continue;
    if (spec.type === 'rules' && (Array.isArray(raw) || isShlinkRules(raw))) {
      // `{rows}` may carry the rules as a list (or Shlink's), not only as the export's JSON text.
      const rules = isShlinkRules(raw) ? fromShlinkRules(raw) : (raw as unknown[]);
      if (rules.length) input[field] = rules;
      continue;
    }
    if (spec.type === 'qr-style' && typeof raw === 'object' && !Array.isArray(raw)) {
      // `{rows}` may carry the style as an object, as a short's answer shows it.
      input[field] = raw;
      continue;
    }
    if (spec.type === 'tags' && Array.isArray(raw)) {
      // `{rows}` may carry the tags as a list (Shlink's API gives `tags: [...]`).
      if (raw.some((t) => typeof t !== 'string')) {
        return { reason: `${field}: must be a list of texts`, errorKey: spec.invalidKey };
      }
      if (raw.length) input[field] = raw as string[];
      continue;
    }
    if (spec.type === 'preview' && typeof raw === 'object' && !Array.isArray(raw)) {
      // `{rows}` may carry the preview as an object, not only as the export's JSON text.
      input[field] = raw;
      continue;
    }
    const text =
      typeof raw === 'string'
        ? unescapeCell(raw.trim())
        : typeof raw === 'number'
          ? String(raw)
          : null;
    if (text === null) {
      return { reason: `${field}: must be text or a number`, errorKey: spec.invalidKey };
    }
    if (text === '') continue;
    const reading = CELL_READERS[spec.type](text, now);
    if ('problem' in reading) {
      return { reason: `${field}: ${reading.problem}`, errorKey: spec.invalidKey };
    }
    input[field] = reading.value;
  }
  if (input.url === undefined) return { reason: 'url: missing', errorKey: 'url_missing' };
  return { input: input as ShortInput };
}
