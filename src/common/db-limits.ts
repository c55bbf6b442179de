import { registerDecorator, type ValidationOptions } from 'class-validator';

/**
 * What the database columns can hold, on SQLite and MySQL/MariaDB alike. Input is bounded by these
 * at the boundary, so a value the database would refuse is a 400 with `fieldErrors`, never a driver
 * error.
 */
/** Largest value of a signed 32-bit INT column (`max_uses`, `uses`). */
export { INT_MAX } from '../shared/limits';
/** The DATETIME range of MySQL/MariaDB, in UTC. */
export const MIN_DATETIME_MS = Date.UTC(1000, 0, 1);
export const MAX_DATETIME_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export const DATETIME_RANGE_MESSAGE = 'must be between 1000-01-01 and 9999-12-31 (UTC)';

/** True for a parseable date-time whose UTC instant fits a DATETIME column. */
export function isStorableDate(value: string | number | Date): boolean {
  const ms = value instanceof Date ? value.getTime() : new Date(value).getTime();
  return Number.isFinite(ms) && ms >= MIN_DATETIME_MS && ms <= MAX_DATETIME_MS;
}

/** class-validator: a date-time string whose UTC instant fits a DATETIME column (e.g. not year 10000 in UTC). */
export function IsStorableDate(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isStorableDate',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: `$property ${DATETIME_RANGE_MESSAGE}`, ...options },
      validator: {
        validate: (value: unknown) =>
          value === null ||
          value === undefined ||
          (typeof value === 'string' && isStorableDate(value)),
      },
    });
}

/**
 * U+0000 is never data: PostgreSQL's text types cannot hold it (the driver refuses the statement),
 * and no field of this API has a use for it. JSON bodies, paths and query strings that carry one
 * are refused at the boundary (app.setup.ts); a lookup by such a value matches nothing.
 */
export const NUL_MESSAGE = 'must not contain NUL characters (U+0000)';

export function hasNul(s: string): boolean {
  return s.includes('\u0000');
}

/**
 * The top-level field of a parsed JSON body that holds a NUL in a string or in a key (`body` when
 * the body itself is not an object), or null. Bodies are at most 32 levels deep when this runs.
 */
export function findNul(body: unknown): string | null {
  const holds = (v: unknown): boolean => {
    if (typeof v === 'string') return hasNul(v);
    if (Array.isArray(v)) return v.some(holds);
    if (v && typeof v === 'object') {
      return Object.entries(v).some(([k, x]) => hasNul(k) || holds(x));
    }
    return false;
  };
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    for (const [k, v] of Object.entries(body))
      if (hasNul(k) || holds(v)) return hasNul(k) ? 'body' : k;
    return null;
  }
  return holds(body) ? 'body' : null;
}
