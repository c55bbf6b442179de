import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { CommitOutcomeUnknownError } from './apply-once';

/**
 * An error as it crosses the thread boundary: what the failure classification and the log read
 * (posted by the thread's side of the codec, thread.worker.mjs's toThreadError).
 */
export interface ThreadError {
  name: string;
  message: string;
  stack?: string;
  code?: string;
  /** CommitOutcomeUnknownError: the batch may have committed. */
  outcomeUnknown?: boolean;
}

/** The main thread's side of the error codec: the error rebuilt as the failure classification reads it. */
export function fromThreadError(e: ThreadError): Error {
  const err = Object.assign(new Error(e.message), { code: e.code });
  err.name = e.name;
  if (e.stack) err.stack = e.stack;
  return e.outcomeUnknown ? new CommitOutcomeUnknownError(err) : err;
}

/** Main thread → thread: a request (answered under its `seq`), or a notice (answered never). */
export type ToThread<Q, N> = { seq: number; request: Q } | { seq?: undefined; notice: N };

/** Thread → main thread. */
export type FromThread<A, E> =
  | { type: 'ready' }
  | { type: 'failed'; error: ThreadError }
  | { type: 'answer'; seq: number; value: A }
  | { type: 'error'; seq: number; error: ThreadError }
  /** Something the thread tells unasked (diagnostics). */
  | { type: 'event'; event: E };

/**
 * What a thread's module opens (its `openThread(init, emit)`, served by thread.worker.mjs): the
 * answers to the requests (a synchronous answer is posted at once, so answers come in order), and
 * the notices. It may throw: the thread then says `failed` with that error.
 */
export interface ThreadService<Q, A, N = never> {
  answer(request: Q): A | Promise<A>;
  notice?(notice: N): void;
}

/** How a thread was lost (told to onLost). */
export type ThreadLoss =
  /** Node refused to start it (no thread at all). */
  | 'refused'
  /** Its module could not open its service (it said `failed`). */
  | 'failed'
  | 'crashed'
  | 'exited'
  /** It did not start, or answered nothing, within stallMs. */
  | 'hung';

export interface WorkerClientOptions<I> {
  /**
   * What the thread is, in messages (`The ${label} is closed`, `The ${label}'s thread exited …`),
   * and the thread's name.
   */
  label: string;
  /**
   * The thread's module, whose `openThread` it serves: an `.mjs` file, or a path without ending
   * (its `.js` when built, else its `.ts`).
   */
  module: string;
  /** What `openThread` is given. */
  init: I;
  /** Another worker script instead of thread.worker.mjs (tests: a thread that misbehaves). */
  script?: string;
  /**
   * A thread that takes longer than this to start, or answers nothing for this long while requests
   * are under way, is taken for hung: stopped, as one that crashed.
   */
  stallMs: number;
  /** A thread without requests for this long is stopped (its memory freed); the next one starts one. */
  idleMs?: number;
  /**
   * After a thread was lost (not stopped when idle or closed), requests fail at once for this long
   * (the caller goes elsewhere), so that a thread that cannot run is not started, and logged, per
   * request. Without it, the next request starts a new thread.
   */
  retryMs?: number;
  /** What a request under way is rejected with when its thread is lost or closed (default: the cause). */
  lostError?: (cause: unknown) => unknown;
  /** Told when a thread is lost (the reason for the log, e.g. `exited (1)`); not when stopped. */
  onLost?: (reason: string, how: ThreadLoss) => void;
}

interface Pending<A> {
  resolve(value: A): void;
  reject(err: unknown): void;
}

/**
 * One worker thread that answers requests (Q → A), started by the first request: the ready
 * handshake, each request's answer (or error, rebuilt by fromThreadError) found by its sequence
 * number, notices (N) to the running thread, events (E) from it. A thread that crashes, exits, fails
 * to open or hangs (stallMs) is lost: the requests under way are rejected (lostError), and the next
 * request starts a new thread (after retryMs, if given). While requests are under way the thread
 * keeps the process alive; an idle thread does not, and is stopped after idleMs (if given).
 * `close` stops it and rejects every request under way and after.
 */
export class WorkerClient<Q, A, N = never, E = never, I = unknown> {
  private worker?: Worker;
  private ready?: Promise<Worker>;
  /** Fails the start under way (the thread was lost or closed before it was ready). */
  private failStart?: (err: unknown) => void;
  private readonly pending = new Map<number, Pending<A>>();
  private seq = 0;
  private closed = false;
  private idle?: NodeJS.Timeout;
  private stall?: NodeJS.Timeout;
  /** Until when requests fail at once (Date.now()), after a thread was lost. */
  private downUntil = 0;
  /** Threads started (tests, diagnostics). */
  started = 0;

  constructor(private readonly options: WorkerClientOptions<I>) {}

  /** The running thread's id (tests). */
  get threadId(): number | undefined {
    return this.worker?.threadId;
  }

  protected async request(request: Q): Promise<A> {
    const { label } = this.options;
    if (this.closed) throw new Error(`The ${label} is closed`);
    if (Date.now() < this.downUntil) throw new Error(`The ${label}'s thread was lost`);
    const worker = await this.start();
    // Closed or lost since it was ready (nothing was posted to it).
    if (this.closed) throw new Error(`The ${label} is closed`);
    if (worker !== this.worker) throw new Error(`The ${label}'s thread was lost`);
    const seq = ++this.seq;
    return new Promise<A>((resolve, reject) => {
      this.pending.set(seq, { resolve, reject });
      if (this.pending.size === 1) this.busy(worker);
      worker.postMessage({ seq, request } satisfies ToThread<Q, N>);
    });
  }

  /** Told to the running thread, if any (a thread started later does not know it). */
  protected notice(notice: N): void {
    this.worker?.postMessage({ notice } satisfies ToThread<Q, N>);
  }

  /** An event of the thread (subclasses). */
  protected onEvent(_event: E): void {}

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.lose(new Error(`The ${this.options.label} is closed`));
    await worker?.terminate();
  }

  private start(): Promise<Worker> {
    if (this.ready) return this.ready;
    const { script, module, init, label } = this.options;
    let worker: Worker;
    try {
      // Named by its label: the operating system's name of the thread (its first 15 characters,
      // e.g. `statistics read` in `top -H` and /proc/<pid>/task/*/comm) and the inspector's.
      worker = new Worker(script ?? join(__dirname, 'thread.worker.mjs'), {
        name: label,
        workerData: { module, init },
      });
    } catch (err) {
      // Refused at once (no thread to lose): the same back-off and log line as a lost one.
      this.options.onLost?.(`failed to start: ${(err as Error).message}`, 'refused');
      this.backOff();
      return Promise.reject(err);
    }
    this.worker = worker;
    this.started++;
    this.ready = new Promise<Worker>((resolve, reject) => {
      this.failStart = reject;
      this.busy(worker); // a thread that does not start in time is hung too
      worker.on('message', (msg: FromThread<A, E>) => {
        if (msg.type === 'ready') {
          this.failStart = undefined;
          this.quiet(worker);
          resolve(worker);
        } else if (msg.type === 'failed') {
          const err = fromThreadError(msg.error);
          this.lost(worker, err, `failed to start: ${err.message}`, 'failed');
        } else if (msg.type === 'event') this.onEvent(msg.event);
        else this.settle(worker, msg);
      });
      worker.on('error', (err) => {
        this.options.onLost?.(`crashed: ${err.message}`, 'crashed');
        this.lose(err, worker, true);
      });
      worker.on('exit', (code) => {
        const err = new Error(`The ${this.options.label}'s thread exited (${code})`);
        if (!this.closed && this.worker === worker) {
          this.options.onLost?.(`exited (${code})`, 'exited');
        }
        this.lose(err, worker, true);
      });
    });
    return this.ready;
  }

  private settle(worker: Worker, msg: Extract<FromThread<A, E>, { seq: number }>): void {
    const p = this.pending.get(msg.seq);
    if (!p) return;
    this.pending.delete(msg.seq);
    if (msg.type === 'answer') p.resolve(msg.value);
    else p.reject(fromThreadError(msg.error));
    // The thread answers in order: the next request's time starts now.
    if (this.pending.size === 0) this.quiet(worker);
    else this.busy(worker);
  }

  /** Requests under way (or a start): the thread keeps the process alive and must answer in time. */
  private busy(worker: Worker): void {
    clearTimeout(this.idle);
    clearTimeout(this.stall);
    worker.ref();
    const ms = this.options.stallMs;
    const reason = `answered nothing for ${ms} ms`;
    this.stall = setTimeout(() => {
      this.lost(worker, new Error(`The ${this.options.label}'s thread ${reason}`), reason, 'hung');
    }, ms);
    this.stall.unref();
  }

  /** Nothing under way: the thread lets the process end, and is stopped after idleMs. */
  private quiet(worker: Worker): void {
    clearTimeout(this.stall);
    clearTimeout(this.idle);
    worker.unref();
    if (this.options.idleMs === undefined) return;
    this.idle = setTimeout(() => this.lose(new Error('idle'), worker), this.options.idleMs);
    this.idle.unref();
  }

  /** The current thread failed (did not open, hung): told, then lost. */
  private lost(worker: Worker, err: Error, reason: string, how: ThreadLoss): void {
    if (worker !== this.worker) return;
    this.options.onLost?.(reason, how);
    this.lose(err, worker, true);
  }

  private backOff(): void {
    if (this.options.retryMs !== undefined) this.downUntil = Date.now() + this.options.retryMs;
  }

  /**
   * The thread is gone or stopped: its start, if under way, fails with `err`, the requests under
   * way with lostError(err); after a failure (`failed`), requests fail at once for retryMs.
   */
  private lose(err: unknown, worker = this.worker, failed = false): void {
    if (!worker || worker !== this.worker) return;
    if (failed) this.backOff();
    this.worker = undefined;
    this.ready = undefined;
    this.failStart?.(err);
    this.failStart = undefined;
    clearTimeout(this.idle);
    clearTimeout(this.stall);
    void worker.terminate();
    const pending = [...this.pending.values()];
    this.pending.clear();
    const { lostError } = this.options;
    for (const p of pending) p.reject(lostError ? lostError(err) : err);
  }
}
