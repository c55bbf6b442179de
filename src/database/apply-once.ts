import type { DataSource, QueryRunner } from 'typeorm';
import { isUniqueViolation } from './errors';

/** What a statement answers when asked for the structured result (TypeORM's QueryResult). */
export interface StructuredResult {
  records: Array<Record<string, unknown>>;
  affected?: number;
  raw: unknown;
}

/** A statement, as TypeORM's query runner runs it: the structured result when asked, else the raw one. */
export interface BatchQuery {
  (sql: string, parameters: unknown[] | undefined, structured: true): Promise<StructuredResult>;
  (sql: string, parameters?: unknown[]): Promise<unknown>;
}

/** A BatchQuery on a function that answers the structured result. */
export function batchQuery(
  run: (sql: string, parameters: unknown[]) => Promise<StructuredResult>,
): BatchQuery {
  return (async (sql: string, parameters: unknown[] = [], structured?: boolean) => {
    const result = await run(sql, parameters);
    return structured ? result : result.raw;
  }) as BatchQuery;
}

/**
 * The transaction calls applyOnce and the batch writers make: a TypeORM QueryRunner's, or those of
 * the statistics thread's connection on better-sqlite3 alone (SqliteBatchSource), which spares that
 * thread TypeORM.
 */
export interface BatchRunner {
  readonly isTransactionActive: boolean;
  connect(): Promise<unknown>;
  startTransaction(): Promise<void>;
  commitTransaction(): Promise<void>;
  rollbackTransaction(): Promise<void>;
  release(): Promise<void>;
  query: BatchQuery;
  /**
   * Inserts a batch's id into `applied_batches` (a runner without TypeORM's query builder, which
   * otherwise writes the id and the date in the engine's form).
   */
  insertBatchId?(id: string, appliedAt: Date): Promise<void>;
}

/** A connection that batches are written on: a TypeORM DataSource, or a SqliteBatchSource. */
export interface BatchSource<R extends BatchRunner = BatchRunner> {
  createQueryRunner(): R;
}

/**
 * The batch transactions of one data source (use counts, statistics) take turns, one at a time, on
 * every engine:
 * - SQLite has one connection and TypeORM one query runner for it: two at once would nest as
 *   savepoints of one transaction;
 * - MySQL/MariaDB: both lock rows of `shorts` (the use counts update them; InnoDB's foreign-key
 *   checks of the statistics rows take shared locks on them until the commit). At the same time
 *   they deadlocked or waited for each other's locks until DB_TIMEOUT_MS, and a use-count batch
 *   that lost went back to the buffer, again and again while the statistics caught up (after an
 *   outage, for many seconds). Waiting for the turn here costs no lock and no timeout.
 * PostgreSQL's foreign-key locks do not conflict with that update; the one rule keeps every engine
 * alike. A turn is short because a batch is bounded (CountBuffer's MAX_BATCH_KEYS).
 */
const turns = new WeakMap<BatchSource<BatchRunner>, Promise<unknown>>();

function inTurn<T>(ds: BatchSource<BatchRunner>, fn: () => Promise<T>): Promise<T> {
  const previous = turns.get(ds) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(fn);
  turns.set(ds, run);
  return run;
}

/**
 * The commit of a batch failed in a way that leaves its outcome unknown (the connection broke while
 * COMMIT was under way): the batch may or may not be written. Retry it with the same id.
 */
export class CommitOutcomeUnknownError extends Error {
  constructor(override readonly cause: unknown) {
    super('The outcome of a commit is unknown');
    this.name = 'CommitOutcomeUnknownError';
  }
}

/**
 * Writes a batch exactly once: `write` runs in one transaction together with the insert of
 * `batchId` into `applied_batches`. Everything commits or nothing does; a retry of a batch that did
 * commit finds its id and writes nothing. Returns false when the batch was written before.
 * Throws CommitOutcomeUnknownError when COMMIT itself failed, any other error when nothing was
 * written.
 */
export function applyOnce<R extends BatchRunner>(
  ds: BatchSource<R>,
  batchId: string,
  write: (runner: R) => Promise<void>,
): Promise<boolean> {
  return inTurn(ds, () => applyOnceNow(ds, batchId, write));
}

async function applyOnceNow<R extends BatchRunner>(
  ds: BatchSource<R>,
  batchId: string,
  write: (runner: R) => Promise<void>,
): Promise<boolean> {
  const runner = ds.createQueryRunner();
  let committing = false;
  try {
    await runner.connect();
    try {
      await runner.startTransaction();
    } catch (err) {
      // TypeORM marks the runner as in a transaction before BEGIN runs; a BEGIN that failed (busy,
      // connection lost) would leave the shared SQLite runner marked, and the next batch would
      // nest as a savepoint outside any transaction.
      resetTransactionState(runner);
      throw err;
    }
    try {
      await insertBatchId(runner, batchId);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      await runner.rollbackTransaction();
      return false;
    }
    await write(runner);
    committing = true;
    await runner.commitTransaction();
    return true;
  } catch (err) {
    if (committing) throw new CommitOutcomeUnknownError(err);
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    throw err;
  } finally {
    await runner.release().catch(() => undefined);
  }
}

async function insertBatchId(runner: BatchRunner, id: string): Promise<void> {
  const appliedAt = new Date();
  if (runner.insertBatchId) return runner.insertBatchId(id, appliedAt);
  await (runner as QueryRunner).manager
    .createQueryBuilder()
    .insert()
    .into('applied_batches')
    .values({ id, applied_at: appliedAt })
    .execute();
}

function resetTransactionState(runner: BatchRunner): void {
  const state = runner as unknown as { isTransactionActive: boolean; transactionDepth?: number };
  state.isTransactionActive = false;
  if (typeof state.transactionDepth === 'number') state.transactionDepth = 0;
}

/** Forgets the ids of batches written before `before` (a batch retried later would count twice). */
export async function pruneAppliedBatches(ds: DataSource, before: Date): Promise<void> {
  await ds
    .createQueryBuilder()
    .delete()
    .from('applied_batches')
    .where('applied_at < :before', { before })
    .execute();
}
