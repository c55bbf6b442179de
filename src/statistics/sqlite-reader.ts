import { join } from 'node:path';
import { WorkerClient } from '../database/worker-thread';

/** What the reads' thread (sqlite-reader.worker.mjs) is started with. */
export interface SqliteReaderInit {
  /** The SQLite file (never `:memory:`: another connection would open another database). */
  file: string;
  /** SQLite's busy timeout on the thread's connection (DB_TIMEOUT_MS). */
  timeoutMs: number;
  /** Its page cache, in KiB (SQLITE_CACHE_KIB). */
  cacheKib: number;
  /** Prepared statements kept on the thread. */
  statements: number;
}

/** A statement and its parameters; answered: its one value (plucked), or null. */
interface SqliteRead {
  text: string;
  params: readonly unknown[];
}

export interface SqliteReaderOptions extends SqliteReaderInit {
  /** Another worker script (tests: a thread that misbehaves). */
  script?: string;
  /** A thread without reads for this long is stopped (its memory freed); the next read starts one. */
  idleMs: number;
  /** How long past timeoutMs a read may go unanswered before the thread counts as hung (5 s). */
  stallMarginMs?: number;
  /**
   * After a thread was lost (not stopped when idle), reads fail at once for this long (the caller
   * reads elsewhere), so that a thread that cannot run is not started, and logged, per read (60 s).
   */
  retryMs?: number;
  /** Told when a thread is lost (crashed, exited, hung, failed to start), for the log. */
  onLost?: (reason: string) => void;
}

const RETRY_MS = 60_000;

/** A read not answered by then (beyond SQLite's own busy wait) means a hung thread. */
const STALL_MARGIN_MS = 5_000;

/**
 * Statements of a SQLite file on a thread of their own (sqlite-reader.worker.mjs, its own
 * connection; WAL lets it read beside the app's connection and the statistics writer's): the
 * statistics read, whose one statement of a year took about 2 ms of the event loop on the app's
 * connection (better-sqlite3 is synchronous), while the main thread answers other requests.
 * `read` answers the statement's one value (plucked), or rejects: a failed statement, a thread
 * that crashed, exited, failed to start or answered nothing within the busy timeout and a margin
 * (then it is stopped; the next read starts a new one, after retryMs). The caller reads elsewhere
 * on a rejection. The thread is started by the first read and stopped after `idleMs` without one;
 * an idle thread does not keep the process alive (WorkerClient).
 */
export class SqliteReader extends WorkerClient<
  SqliteRead,
  unknown,
  never,
  never,
  SqliteReaderInit
> {
  constructor(options: SqliteReaderOptions) {
    const { script, file, timeoutMs, cacheKib, statements, idleMs, onLost } = options;
    super({
      label: 'statistics reader',
      module: join(__dirname, 'sqlite-reader.worker.mjs'),
      init: { file, timeoutMs, cacheKib, statements },
      script,
      stallMs: timeoutMs + (options.stallMarginMs ?? STALL_MARGIN_MS),
      idleMs,
      retryMs: options.retryMs ?? RETRY_MS,
      onLost: onLost && ((reason) => onLost(reason)),
    });
  }

  read(text: string, params: readonly unknown[]): Promise<unknown> {
    return this.request({ text, params });
  }
}
