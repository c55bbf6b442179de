import { QueryFailedError } from 'typeorm';

/** True when a write failed on a unique index (SQLite or MySQL/MariaDB). */
export function isUniqueViolation(err: unknown): boolean {
  const driver =
    err instanceof QueryFailedError
      ? (err.driverError as Record<string, unknown>)
      : (err as Record<string, unknown>);
  if (!driver) return false;
  const code = String(driver.code ?? '');
  return (
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === 'ER_DUP_ENTRY' ||
    driver.errno === 1062
  );
}
