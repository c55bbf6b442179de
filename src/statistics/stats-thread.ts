import type { ThreadService } from '../database/worker-thread';
import { SqliteBatchSource } from '../database/sqlite-batch-source';
import { addUseCounts, existingShortIds } from '../shorts/use-counts';
import { StatsWriter } from './stats-writer';

/** What the statistics writer's thread is started with (StatsWriterThread). */
export interface StatsThreadInit {
  /** The SQLite file (never `:memory:`: another connection would open another database). */
  file: string;
  timeoutMs: number;
}

/** A batch to write (answered: whether it was written now, false when written before). */
export interface StatsThreadRequest {
  batchId: string;
  counts: ReadonlyMap<string, number>;
}

/** What the writer is told between batches. */
export type StatsThreadNotice =
  { type: 'gone'; ids: string[] } | { type: 'forgetSaltsBefore'; day: number };

/** The writer asked which shorts exist (the foreign-key fallback): diagnostics, tests. */
export interface StatsThreadEvent {
  asked: number;
}

/**
 * The statistics writer's thread (started by StatsWriterThread on a SQLite file): its own
 * better-sqlite3 connection, opened as the app's (WAL, the busy handling of sqlite-busy.ts:
 * BEGIN IMMEDIATE, retried without blocking), and the one StatsWriter, which writes each batch
 * exactly once (applyOnce) as on the main thread. Its statements and COMMIT no longer hold the main
 * event loop; WAL lets the main connection read meanwhile, and its writes wait for the lock
 * asynchronously (sqlite-busy.ts), as for another instance on the same file. No lower priority for
 * this thread: it holds SQLite's write lock while it writes, and the main connection's writes wait
 * for it.
 *
 * The connection is better-sqlite3's own (SqliteBatchSource), not a TypeORM DataSource: nothing
 * this thread loads requires TypeORM or Nest (16 MiB less RSS after its first batch:
 * docs/performance.md, "Memory").
 */
export function openThread(
  init: StatsThreadInit,
  emit: (event: StatsThreadEvent) => void,
): ThreadService<StatsThreadRequest, boolean, StatsThreadNotice> {
  const ds = new SqliteBatchSource(init.file, init.timeoutMs);
  const writer = new StatsWriter(
    ds,
    (ids) => {
      emit({ asked: ids.length });
      return existingShortIds((sql, params) => ds.query(sql, params), 'sqlite', ids);
    },
    (runner, counts) => addUseCounts(runner, 'sqlite', counts),
  );
  return {
    answer: ({ batchId, counts }) => writer.write(batchId, counts),
    notice: (n) => {
      if (n.type === 'gone') writer.gone(n.ids);
      else writer.forgetSaltsBefore(n.day);
    },
  };
}
