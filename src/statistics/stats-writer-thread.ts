import { Worker } from 'node:worker_threads';
import { CommitOutcomeUnknownError } from '../database/apply-once';
import type {
  StatsThreadInit,
  StatsThreadReply,
  StatsThreadRequest,
  ThreadError,
} from './stats-thread';

interface Pending {
  resolve(written: boolean): void;
  reject(err: unknown): void;
  timer: NodeJS.Timeout;
}

/**
 * A worker that takes longer to start or to answer a batch is taken for hung and replaced (its
 * batch is retried with its id). Far above a batch's time, busy waits included (DB_TIMEOUT_MS).
 */
export const STATS_THREAD_STALL_MS = 60_000;

export interface StatsWriterThreadOptions extends StatsThreadInit {
  /** The worker script (stats-writer.worker.mjs). */
  script: string;
  /** Told when the thread is lost (crashed, exited, failed to start), for the log. */
  onLost?: (reason: string) => void;
}

/** An error of the thread, rebuilt with what the failure classification reads (code, message). */
function fromThread(e: ThreadError): Error {
  const err = Object.assign(new Error(e.message), { code: e.code });
  err.name = e.name;
  if (e.stack) err.stack = e.stack;
  return e.outcomeUnknown ? new CommitOutcomeUnknownError(err) : err;
}

/**
 * StatsWriter on a thread of its own (a SQLite file): the same `write(batchId, counts)`, `gone` and
 * `forgetSaltsBefore`, posted to a worker that writes with its own connection (stats-thread.ts).
 * A batch resolves once the worker's transaction committed (or found its id written before); a
 * failure rejects as the writer's would (CountBuffer merges the batch back); a worker that dies
 * while a batch is under way rejects it with CommitOutcomeUnknownError (it may have committed: the
 * batch is retried with its id, which applyOnce recognises). The next batch starts a new worker.
 */
export class StatsWriterThread {
  private worker?: Worker;
  private ready?: Promise<Worker>;
  private readonly pending = new Map<number, Pending>();
  private seq = 0;
  private closed = false;
  /** Workers started (tests, diagnostics). */
  started = 0;
  /** Times the writer asked which shorts exist (its foreign-key fallback; tests, diagnostics). */
  asked = 0;

  constructor(private readonly options: StatsWriterThreadOptions) {}

  write = async (batchId: string, counts: ReadonlyMap<string, number>): Promise<boolean> => {
    if (this.closed) throw new Error('The statistics writer is closed');
    const worker = await this.start();
    const seq = ++this.seq;
    return new Promise<boolean>((resolve, reject) => {
      const timer = setTimeout(
        () => this.stalled(worker, `answered no batch for ${STATS_THREAD_STALL_MS} ms`),
        STATS_THREAD_STALL_MS,
      );
      timer.unref();
      this.pending.set(seq, { resolve, reject, timer });
      worker.ref(); // a batch under way keeps the process alive (shutdown waits for it)
      worker.postMessage({ type: 'write', seq, batchId, counts } satisfies StatsThreadRequest);
    });
  };

  /**
   * Deleted shorts, told to the running worker; a worker started later does not know them, and a
   * batch of theirs falls back to asking which shorts exist (StatsWriter's foreign-key fallback).
   */
  gone(ids: Iterable<string>): void {
    this.worker?.postMessage({ type: 'gone', ids: [...ids] } satisfies StatsThreadRequest);
  }

  forgetSaltsBefore(day: number): void {
    this.worker?.postMessage({ type: 'forgetSaltsBefore', day } satisfies StatsThreadRequest);
  }

  /** Stops the worker (after the last batch: see StatisticsRecorder's shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.lose(new Error('The statistics writer is closed'));
    await worker?.terminate();
  }

  /** The worker's thread id (tests: that the batch is written there). */
  get threadId(): number | undefined {
    return this.worker?.threadId;
  }

  private start(): Promise<Worker> {
    this.ready ??= new Promise<Worker>((resolve, reject) => {
      const { file, timeoutMs } = this.options;
      const worker = new Worker(this.options.script, {
        workerData: { file, timeoutMs } satisfies StatsThreadInit,
      });
      this.worker = worker;
      this.started++;
      let up = false;
      const starting = setTimeout(() => {
        const err = this.stalled(worker, `did not start in ${STATS_THREAD_STALL_MS} ms`);
        reject(err);
      }, STATS_THREAD_STALL_MS);
      starting.unref();
      worker.on('message', (msg: StatsThreadReply) => {
        if (msg.type !== 'asked') clearTimeout(starting);
        if (msg.type === 'ready') {
          up = true;
          if (this.pending.size === 0) worker.unref();
          resolve(worker);
        } else if (msg.type === 'asked') {
          this.asked++;
        } else if (msg.type === 'failed') {
          this.lose(fromThread(msg.error), worker);
          reject(fromThread(msg.error));
        } else this.settle(msg);
      });
      worker.on('error', (err) => {
        clearTimeout(starting);
        this.options.onLost?.(`crashed: ${err.message}`);
        this.lose(err, worker);
        if (!up) reject(err);
      });
      worker.on('exit', (code) => {
        clearTimeout(starting);
        const err = new Error(`The statistics writer's thread exited (${code})`);
        if (!this.closed && this.worker === worker) this.options.onLost?.(`exited (${code})`);
        this.lose(err, worker);
        if (!up) reject(err);
      });
    });
    return this.ready;
  }

  private settle(msg: Extract<StatsThreadReply, { seq: number }>): void {
    const p = this.pending.get(msg.seq);
    if (!p) return;
    this.pending.delete(msg.seq);
    clearTimeout(p.timer);
    if (this.pending.size === 0) this.worker?.unref();
    if (msg.type === 'written') p.resolve(msg.written);
    else p.reject(fromThread(msg.error));
  }

  /**
   * The worker is gone (or failed to start): batches under way may or may not have committed, so
   * they are retried with their ids (CommitOutcomeUnknownError); the next write starts a new one.
   */
  private lose(err: unknown, worker = this.worker): void {
    if (!worker || worker !== this.worker) return;
    this.worker = undefined;
    this.ready = undefined;
    void worker.terminate();
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) {
      clearTimeout(p.timer);
      p.reject(new CommitOutcomeUnknownError(err));
    }
  }

  /** A worker that hangs: stopped and replaced, as one that crashed. */
  private stalled(worker: Worker, reason: string): Error {
    const err = new Error(`The statistics writer's thread ${reason}`);
    if (worker === this.worker) {
      this.options.onLost?.(reason);
      this.lose(err, worker);
    }
    return err;
  }
}
