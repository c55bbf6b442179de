/**
 * The driver's own error: a TypeORM QueryFailedError's `driverError`, else the error itself (a
 * driver's error, as the statistics thread's better-sqlite3 connection throws them). Read by its
 * shape, not `instanceof QueryFailedError`, so that this module loads no TypeORM (that thread's
 * memory: docs/performance.md, "Memory").
 */
function driverOf(err: unknown): Record<string, unknown> | null {
  const e = err instanceof Error && 'driverError' in err ? (err.driverError as unknown) : err;
  return e && typeof e === 'object' ? (e as Record<string, unknown>) : null;
}

/** Whether the driver's error has one of these codes, or MySQL's error number. */
function driverCodeIs(err: unknown, codes: readonly string[], mysqlErrno: number): boolean {
  const driver = driverOf(err);
  if (!driver) return false;
  return codes.includes(String(driver.code ?? '')) || driver.errno === mysqlErrno;
}

/** True when a write failed on a unique index (SQLite or MySQL/MariaDB). */
export function isUniqueViolation(err: unknown): boolean {
  return driverCodeIs(
    err,
    [
      'SQLITE_CONSTRAINT_UNIQUE',
      'SQLITE_CONSTRAINT_PRIMARYKEY',
      'ER_DUP_ENTRY',
      '23505', // PostgreSQL unique_violation
    ],
    1062,
  );
}

/** A row refers to one that does not exist (a foreign key), on every engine. */
export function isForeignKeyViolation(err: unknown): boolean {
  return driverCodeIs(
    err,
    [
      'SQLITE_CONSTRAINT_FOREIGNKEY',
      'ER_NO_REFERENCED_ROW_2',
      'ER_NO_REFERENCED_ROW',
      '23503', // PostgreSQL foreign_key_violation
    ],
    1452,
  );
}

/**
 * Awaits a write; when it fails on a unique index, throws `conflict()` instead (the caller's 409),
 * any other failure as it is.
 */
export async function onUniqueViolation<T>(write: Promise<T>, conflict: () => Error): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict();
    throw err;
  }
}

/** Our own code for a pool that could not hand out a connection within DB_TIMEOUT_MS. */
export const POOL_ACQUIRE_TIMEOUT = 'POOL_ACQUIRE_TIMEOUT';

/** Socket, protocol and server states of MySQL/MariaDB (mysql2) that mean "not reachable now". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'PROTOCOL_ENQUEUE_AFTER_QUIT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_LOCK_DEADLOCK',
  'ER_QUERY_INTERRUPTED',
  'ER_CLIENT_INTERACTION_TIMEOUT',
  POOL_ACQUIRE_TIMEOUT,
]);

/**
 * PostgreSQL SQLSTATEs that mean "not reachable now": connection exceptions (class 08), too many
 * connections and other exhausted resources (53), shutdowns and a cancelled (timed out) statement
 * (57), lock waits, deadlocks and serialization failures (55P03, 40001, 40P01).
 */
const PG_UNAVAILABLE = /^(08\d{3}|53\d{3}|57P0[1-3]|57014|55P03|40001|40P01)$/;

/** SQLite result codes (prefixes of the extended codes) that mean "busy, locked or not writable now". */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|READONLY|IOERR|CANTOPEN|FULL|PROTOCOL)/;

/** mysql2, pg and TypeORM errors without a code that mean the pool or connection is gone. */
const UNAVAILABLE_MESSAGES =
  /^(Pool is closed|No connections available|Queue limit reached|Can't add new command when connection is in closed state|Can't write in closed state|Connection is not established|The database connection is not open|timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error|Cannot use a pool after calling end|Query read timeout|Driver not Connected)/;

/**
 * True when a database error means the database is down, unreachable, silent or busy (a connection
 * or availability problem that goes away by itself), as opposed to a bug or a bad query. Such
 * errors are answered with 503 and `Retry-After`, and logged once per interval, not per request.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const driver = driverOf(err);
  if (!driver) return false;
  // A wrapper (e.g. CommitOutcomeUnknownError) is as unavailable as its cause.
  if (driver.cause && isDatabaseUnavailable(driver.cause)) return true;
  const code = typeof driver.code === 'string' ? driver.code : '';
  if (UNAVAILABLE_CODES.has(code) || SQLITE_UNAVAILABLE.test(code) || PG_UNAVAILABLE.test(code))
    return true;
  const message = typeof driver.message === 'string' ? driver.message : '';
  if (UNAVAILABLE_MESSAGES.test(message)) return true;
  // mysql2 marks errors that end the connection as fatal (lost socket, handshake failure).
  return driver.fatal === true && !code.startsWith('ER_ACCESS');
}

/** A short name of a database error for logs: its code, never its message (it may name hosts or users). */
export function databaseErrorCode(err: unknown): string {
  const driver = driverOf(err);
  const code = driver && typeof driver.code === 'string' ? driver.code : '';
  if (code) return code;
  if (driver?.cause) return databaseErrorCode(driver.cause);
  return err instanceof Error ? err.name : 'unknown';
}

/** Failures that happen before a statement reaches the server: it certainly did not run. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'PROTOCOL_ENQUEUE_AFTER_QUIT',
  'ER_CON_COUNT_ERROR',
  POOL_ACQUIRE_TIMEOUT,
]);
const NOT_SENT_MESSAGES =
  /^(Pool is closed|No connections available|Queue limit reached|Can't add new command when connection is in closed state|Can't write in closed state|Connection is not established|timeout exceeded when trying to connect|Cannot use a pool after calling end|Client was closed and is not queryable|Client has encountered a connection error and is not queryable)/;

/**
 * False when a failed statement certainly did not run (the connection was refused, none could be
 * had, it was known to be closed before sending; SQLite: busy, locked or read-only, which it
 * reports before changing anything). True when it may have run on the server and only the answer
 * was lost (the connection broke or went silent while it was under way): its outcome is unknown.
 */
export function statementMayHaveRun(err: unknown): boolean {
  const driver = driverOf(err);
  if (!driver) return true;
  const code = typeof driver.code === 'string' ? driver.code : '';
  if (NOT_SENT_CODES.has(code) || SQLITE_UNAVAILABLE.test(code)) return false;
  // PostgreSQL: could not connect, too many connections, starting up.
  if (/^(08001|08004|53300|57P03)$/.test(code)) return false;
  const message = typeof driver.message === 'string' ? driver.message : '';
  return !NOT_SENT_MESSAGES.test(message);
}
