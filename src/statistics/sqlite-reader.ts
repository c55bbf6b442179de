import { Worker } from 'node:worker_threads';
import type { ThreadError } from './stats-thread';

export interface SqliteReaderOptions {
  /** The worker script (sqlite-reader.worker.mjs). */
  script: string;
  /** The SQLite file (never `:memory:`: another connection would open another database). */
  file: string;
  /** SQLite's busy timeout on the thread's connection (DB_TIMEOUT_MS). */
  timeoutMs: number;
  /** Its page cache, in KiB (SQLITE_CACHE_KIB). */
  cacheKib: number;
  /** Prepared statements kept on the thread. */
  statements: number;
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

type Reply =
  | { type: 'ready' }
  | { type: 'failed'; error: ThreadError }
  | { type: 'value'; seq: number; value: unknown }
  | { type: 'error'; seq: number; error: ThreadError };

interface Pending {
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

const RETRY_MS = 60_000;

/** A read not answered by then (beyond SQLite's own busy wait) means a hung thread. */
const STALL_MARGIN_MS = 5_000;

function fromThread(e: ThreadError): Error {
  const err = Object.assign(new Error(e.message), { code: e.code });
  err.name = e.name;
  return err;
}

/**
 * Statements of a SQLite file on a thread of their own (sqlite-reader.worker.mjs, its own
 * connection; WAL lets it read beside the app's connection and the statistics writer's): the
 * statistics read, whose one statement of a year took about 2 ms of the event loop on the app's
 * connection (better-sqlite3 is synchronous), while the main thread answers other requests.
 * `read` answers the statement's one value (plucked), or rejects: a failed statement, a thread
 * that crashed, exited, failed to start or answered nothing within the busy timeout and a margin
 * (then it is stopped; the next read starts a new one). The caller reads elsewhere on a rejection.
 * The thread is started by the first read and stopped after `idleMs` without one; an idle thread
 * does not keep the process alive.
 */
export class SqliteReader {
  private worker?: Worker;
  private ready?: Promise<Worker>;
  private readonly pending = new Map<number, Pending>();
  private seq = 0;
  private closed = false;
  private idle?: NodeJS.Timeout;
  private stall?: NodeJS.Timeout;
  /** Until when reads fail at once (Date.now()), after a thread was lost. */
  private downUntil = 0;
  /** Threads started (tests, diagnostics). */
  started = 0;

  constructor(private readonly options: SqliteReaderOptions) {}

  async read(text: string, params: readonly unknown[]): Promise<unknown> {
    if (this.closed) throw new Error('The statistics reader is closed');
    if (Date.now() < this.downUntil) throw new Error('The statistics reader’s thread was lost');
    const worker = await this.start();
    const seq = ++this.seq;
    return new Promise<unknown>((resolve, reject) => {
      this.pending.set(seq, { resolve, reject });
      if (this.pending.size === 1) this.busy(worker);
      worker.postMessage({ seq, text, params });
    });
  }

  /** The running thread's id (tests). */
  get threadId(): number | undefined {
    return this.worker?.threadId;
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.lose(new Error('The statistics reader is closed'));
    await worker?.terminate();
  }

  private start(): Promise<Worker> {
    if (this.ready) return this.ready;
    const { script, file, timeoutMs, cacheKib, statements } = this.options;
    let worker: Worker;
    try {
      worker = new Worker(script, { workerData: { file, timeoutMs, cacheKib, statements } });
    } catch (err) {
      // Refused at once (no thread to lose): the same back-off and log line as a lost one.
      this.options.onLost?.(`failed to start: ${(err as Error).message}`);
      this.downUntil = Date.now() + (this.options.retryMs ?? RETRY_MS);
      return Promise.reject(err);
    }
    this.worker = worker;
    this.started++;
    this.ready = new Promise<Worker>((resolve, reject) => {
      let up = false;
      this.busy(worker); // a thread that does not start in time is taken for hung too
      worker.on('message', (msg: Reply) => {
        if (msg.type === 'ready') {
          up = true;
          this.quiet(worker);
          resolve(worker);
        } else if (msg.type === 'failed') {
          const err = fromThread(msg.error);
          this.options.onLost?.(`failed to start: ${err.message}`);
          this.lose(err, worker, true);
          reject(err);
        } else this.settle(worker, msg);
      });
      worker.on('error', (err) => {
        this.options.onLost?.(`crashed: ${err.message}`);
        this.lose(err, worker, true);
        if (!up) reject(err);
      });
      worker.on('exit', (code) => {
        const err = new Error(`The statistics reader's thread exited (${code})`);
        if (!this.closed && this.worker === worker) this.options.onLost?.(`exited (${code})`);
        this.lose(err, worker, true);
        if (!up) reject(err);
      });
    });
    return this.ready;
  }

  private settle(worker: Worker, msg: Extract<Reply, { seq: number }>): void {
    const p = this.pending.get(msg.seq);
    if (!p) return;
    this.pending.delete(msg.seq);
    if (msg.type === 'value') p.resolve(msg.value);
    else p.reject(fromThread(msg.error));
    // The thread answers in order: the next read's time starts now.
    if (this.pending.size === 0) this.quiet(worker);
    else this.busy(worker);
  }

  /** Reads under way: the thread keeps the process alive and must answer within the stall time. */
  private busy(worker: Worker): void {
    clearTimeout(this.idle);
    clearTimeout(this.stall);
    worker.ref();
    const ms = this.options.timeoutMs + (this.options.stallMarginMs ?? STALL_MARGIN_MS);
    this.stall = setTimeout(() => {
      this.options.onLost?.(`answered nothing for ${ms} ms`);
      const err = new Error(`The statistics reader's thread answered nothing for ${ms} ms`);
      this.lose(err, worker, true);
    }, ms);
    this.stall.unref();
  }

  /** No read under way: the thread lets the process end, and is stopped after idleMs. */
  private quiet(worker: Worker): void {
    clearTimeout(this.stall);
    clearTimeout(this.idle);
    worker.unref();
    this.idle = setTimeout(() => this.lose(new Error('idle'), worker), this.options.idleMs);
    this.idle.unref();
  }

  /**
   * The thread is gone or stopped: the reads under way fail (their callers read elsewhere); after
   * a failure (`failed`), reads fail at once for retryMs.
   */
  private lose(err: unknown, worker = this.worker, failed = false): void {
    if (!worker || worker !== this.worker) return;
    if (failed) this.downUntil = Date.now() + (this.options.retryMs ?? RETRY_MS);
    this.worker = undefined;
    this.ready = undefined;
    clearTimeout(this.idle);
    clearTimeout(this.stall);
    void worker.terminate();
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(err);
  }
}
