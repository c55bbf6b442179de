import type { ValueTransformer } from 'typeorm';

/** Boolean stored as 0/1 on both SQLite and MySQL (tinyint), read back as a real boolean. */
export const booleanTransformer: ValueTransformer = {
  to: (v: boolean | undefined | null) => (v === undefined || v === null ? v : v ? 1 : 0),
  from: (v: unknown) => (v === null || v === undefined ? v : v === true || v === 1 || v === '1'),
};

/**
 * Column options that mean the same on every engine (see migrations/portable.ts): millisecond
 * times (`Date`: DATETIME on SQLite and MySQL, a timestamp on PostgreSQL) and 0/1 flags.
 */
export const DATETIME = { type: Date, precision: 3 } as const;
export const FLAG = { type: 'smallint', transformer: booleanTransformer } as const;

/**
 * A time as raw queries return it, in ms: a Date (MySQL, PostgreSQL) or SQLite's UTC text
 * `YYYY-MM-DD HH:MM:SS.SSS`. NaN when it is neither.
 */
export function dbTimeMs(v: unknown): number {
  if (v instanceof Date) return v.getTime();
  const s = String(v);
  return Date.parse(/^\d{4}-\d{2}-\d{2} /.test(s) ? `${s.replace(' ', 'T')}Z` : s);
}
