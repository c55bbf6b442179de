import { join } from 'node:path';
import { CommitOutcomeUnknownError } from '../database/apply-once';
import { WorkerClient } from '../database/worker-thread';
import type {
  StatsThreadEvent,
  StatsThreadInit,
  StatsThreadNotice,
  StatsThreadRequest,
} from './stats-thread';

/**
 * A worker that takes longer to start or to answer a batch is taken for hung and replaced (its
 * batch is retried with its id). Far above a batch's time, busy waits included (DB_TIMEOUT_MS).
 */
export const STATS_THREAD_STALL_MS = 60_000;

/**
 * The worker is stopped after this long without a batch (a batch comes every second while
 * shorts are followed): its V8 heap (a young generation of up to 2 × 4 MiB and the old one), its
 * stack and its connection are freed (about 5 MiB 200 s after the bench's SQLite run, when V8 had
 * shrunk its heap; more right after load). The next batch starts a new worker (its salts are read
 * from stats_salts, and the deleted shorts it was told fall back to asking which shorts exist).
 * docs/performance.md, "Memory".
 */
export const STATS_THREAD_IDLE_MS = 60_000;

export interface StatsWriterThreadOptions extends StatsThreadInit {
  /** Told when the thread is lost (crashed, exited, hung, failed to start), for the log. */
  onLost?: (reason: string) => void;
  /** STATS_THREAD_IDLE_MS unless given (tests). */
  idleMs?: number;
}

/**
 * StatsWriter on a thread of its own (a SQLite file; WorkerClient): the same `write(batchId,
 * counts)`, `gone` and `forgetSaltsBefore`, posted to a worker that writes with its own connection
 * (stats-thread.ts). A batch resolves once the worker's transaction committed (or found its id
 * written before); a failure rejects as the writer's would (CountBuffer merges the batch back); a
 * worker that dies while a batch is under way rejects it with CommitOutcomeUnknownError (it may
 * have committed: the batch is retried with its id, which applyOnce recognises). The next batch
 * starts a new worker. A worker that cannot open the file is not told to onLost: the batch's own
 * failure says it.
 */
export class StatsWriterThread extends WorkerClient<
  StatsThreadRequest,
  boolean,
  StatsThreadNotice,
  StatsThreadEvent,
  StatsThreadInit
> {
  /** Times the writer asked which shorts exist (its foreign-key fallback; tests, diagnostics). */
  asked = 0;

  constructor({
    file,
    timeoutMs,
    onLost,
    idleMs = STATS_THREAD_IDLE_MS,
  }: StatsWriterThreadOptions) {
    super({
      label: 'statistics writer',
      module: join(__dirname, 'stats-thread'),
      init: { file, timeoutMs },
      stallMs: STATS_THREAD_STALL_MS,
      idleMs,
      lostError: (cause) => new CommitOutcomeUnknownError(cause),
      onLost: (reason, how) => {
        if (how !== 'failed') onLost?.(reason);
      },
    });
  }

  write = (batchId: string, counts: ReadonlyMap<string, number>): Promise<boolean> =>
    this.request({ batchId, counts });

  /**
   * Deleted shorts, told to the running worker; a worker started later does not know them, and a
   * batch of theirs falls back to asking which shorts exist (StatsWriter's foreign-key fallback).
   */
  gone(ids: Iterable<string>): void {
    this.notice({ type: 'gone', ids: [...ids] });
  }

  forgetSaltsBefore(day: number): void {
    this.notice({ type: 'forgetSaltsBefore', day });
  }

  protected override onEvent(_event: StatsThreadEvent): void {
    this.asked++;
  }
}
