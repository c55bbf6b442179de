import type { MessagePort } from 'node:worker_threads';
import { CommitOutcomeUnknownError } from '../database/apply-once';
import { SqliteBatchSource } from '../database/sqlite-batch-source';
import { addUseCounts, existingShortIds } from '../shorts/use-counts';
import { StatsWriter } from './stats-writer';

/** What the statistics writer's thread is started with (StatsWriterThread). */
export interface StatsThreadInit {
  /** The SQLite file (never `:memory:`: another connection would open another database). */
  file: string;
  timeoutMs: number;
}

/** Main thread → writer thread. */
export type StatsThreadRequest =
  | { type: 'write'; seq: number; batchId: string; counts: ReadonlyMap<string, number> }
  | { type: 'gone'; ids: string[] }
  | { type: 'forgetSaltsBefore'; day: number };

/** An error as it crosses the thread boundary: what the failure classification reads. */
export interface ThreadError {
  name: string;
  message: string;
  stack?: string;
  code?: string;
  /** CommitOutcomeUnknownError: the batch may have committed. */
  outcomeUnknown?: boolean;
}

/** Writer thread → main thread. */
export type StatsThreadReply =
  | { type: 'ready' }
  /** The writer asked which shorts exist (the foreign-key fallback): diagnostics, tests. */
  | { type: 'asked'; ids: number }
  | { type: 'failed'; error: ThreadError }
  | { type: 'written'; seq: number; written: boolean }
  | { type: 'error'; seq: number; error: ThreadError };

function codeOf(err: unknown): string | undefined {
  const e = err as { code?: unknown; driverError?: { code?: unknown } } | null;
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}

export function toThreadError(err: unknown): ThreadError {
  const unknownOutcome = err instanceof CommitOutcomeUnknownError;
  const cause = unknownOutcome ? err.cause : err;
  const e = cause instanceof Error ? cause : new Error(String(cause));
  return {
    name: e.name,
    message: e.message,
    stack: e.stack,
    code: codeOf(cause),
    outcomeUnknown: unknownOutcome || undefined,
  };
}

/**
 * The statistics writer's thread (started by StatsWriterThread on a SQLite file): its own
 * better-sqlite3 connection, opened as the app's (WAL, the busy handling of sqlite-busy.ts:
 * BEGIN IMMEDIATE, retried without blocking), and the one StatsWriter, which writes each batch
 * exactly once (applyOnce) as on the main thread. Its statements and COMMIT no longer hold the main
 * event loop; WAL lets the main connection read meanwhile, and its writes wait for the lock
 * asynchronously (sqlite-busy.ts), as for another instance on the same file.
 *
 * The connection is better-sqlite3's own (SqliteBatchSource), not a TypeORM DataSource: nothing
 * this thread loads requires TypeORM or Nest (16 MiB less RSS after its first batch:
 * docs/performance.md, "Memory").
 */
export async function serveStatsThread(port: MessagePort, init: StatsThreadInit): Promise<void> {
  let ds: SqliteBatchSource;
  try {
    ds = new SqliteBatchSource(init.file, init.timeoutMs);
  } catch (err) {
    port.postMessage({ type: 'failed', error: toThreadError(err) } satisfies StatsThreadReply);
    return;
  }
  const writer = new StatsWriter(
    ds,
    (ids) => {
      port.postMessage({ type: 'asked', ids: ids.length } satisfies StatsThreadReply);
      return existingShortIds((sql, params) => ds.query(sql, params), 'sqlite', ids);
    },
    (runner, counts) => addUseCounts(runner, 'sqlite', counts),
  );
  port.on('message', (msg: StatsThreadRequest) => {
    if (msg.type === 'gone') writer.gone(msg.ids);
    else if (msg.type === 'forgetSaltsBefore') writer.forgetSaltsBefore(msg.day);
    else {
      writer.write(msg.batchId, msg.counts).then(
        (written) =>
          port.postMessage({ type: 'written', seq: msg.seq, written } satisfies StatsThreadReply),
        (err: unknown) =>
          port.postMessage({
            type: 'error',
            seq: msg.seq,
            error: toThreadError(err),
          } satisfies StatsThreadReply),
      );
    }
  });
  port.postMessage({ type: 'ready' } satisfies StatsThreadReply);
}
