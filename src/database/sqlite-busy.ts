import type { DataSource, QueryRunner } from 'typeorm';

/** What this module needs of the better-sqlite3 connection. */
interface SqliteConnection {
  inTransaction: boolean;
  pragma(sql: string): unknown;
}

/** SQLite's own busy wait: short, because it blocks the event loop (better-sqlite3 is synchronous). */
export const SQLITE_BUSY_SPIN_MS = 5;
const MAX_BACKOFF_MS = 50;

function isBusy(err: unknown): boolean {
  // TypeORM's QueryFailedError carries better-sqlite3's error as driverError; a raw connection
  // (the statistics thread's) throws better-sqlite3's own.
  const e = err as { code?: unknown; driverError?: { code?: unknown } } | null;
  const code = e?.driverError ? e.driverError.code : e?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

/**
 * Runs `statement` again while it fails busy and `retriable` says it changed nothing (see below),
 * asynchronously, with a growing pause, until `ms` have passed; then the busy error stands.
 */
export async function whileBusy<T>(
  statement: () => Promise<T>,
  retriable: () => boolean,
  ms: number,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (let pause = 2; ; pause = Math.min(pause * 2, MAX_BACKOFF_MS)) {
    try {
      return await statement();
    } catch (err) {
      if (!isBusy(err) || !retriable() || Date.now() + pause > deadline) throw err;
      await new Promise((r) => setTimeout(r, pause));
    }
  }
}

/**
 * Waits for a locked SQLite database (another process writing, a backup) without blocking the
 * event loop: better-sqlite3 runs every statement synchronously, so SQLite's busy timeout would
 * freeze the whole process, follows of cached shorts included, for as long as it waits (DB_TIMEOUT_MS
 * per write, one write after the other). Instead SQLite waits only SQLITE_BUSY_SPIN_MS
 * (`busy_timeout`, set here) and a statement that finds the database busy is
 * retried here, asynchronously, with a growing pause, until `ms` have passed; then the busy error
 * stands (503).
 *
 * Only statements that change nothing when they fail busy are retried: statements outside a
 * transaction, and the transaction's start, which takes the write lock up front (`BEGIN IMMEDIATE`),
 * so no statement inside a transaction waits for the lock (nor can it fail half-way for it).
 * The statistics thread's connection (SqliteBatchSource) does the same with whileBusy.
 */
export function applySqliteBusyRetry(ds: DataSource, ms: number): void {
  const runner = ds.driver.createQueryRunner('master'); // SQLite: the one runner of the one connection
  const db = (ds.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
  db.pragma(`busy_timeout = ${SQLITE_BUSY_SPIN_MS}`);
  const query = runner.query.bind(runner) as QueryRunner['query'];
  runner.query = ((sql: string, parameters?: unknown[], structured?: boolean) => {
    const begin = sql === 'BEGIN TRANSACTION';
    const statement = begin ? 'BEGIN IMMEDIATE TRANSACTION' : sql;
    return whileBusy(
      () => query(statement, parameters, structured as true),
      () => begin || !db.inTransaction,
      ms,
    );
  }) as QueryRunner['query'];
}
