import { Worker } from 'node:worker_threads';
import { BusyError } from '../common/errors';

/** What a worker renders: `QRCode.toBuffer(text, options)` of the `qrcode` package. */
export interface RenderJob {
  text: string;
  options: Record<string, unknown>;
}

export interface RenderPoolOptions {
  /** The worker script (a plain .mjs file: a worker cannot load TypeScript). */
  script: string;
  /** Worker threads at most; each renders one job at a time. */
  workers: number;
  /** Jobs that may wait for a worker; beyond them `run` refuses at once (BusyError). */
  queue: number;
  /** A render that takes longer is abandoned (BusyError) and its worker replaced. */
  timeoutMs: number;
  /** Told when a worker is lost (crashed, or stopped for taking too long), for the log. */
  onLost?: (reason: string) => void;
}

interface Pending {
  job: RenderJob;
  resolve(png: Buffer): void;
  reject(err: unknown): void;
}

interface Slot {
  worker: Worker;
  current?: Pending;
  timer?: NodeJS.Timeout;
}

/** Seconds a client should wait after a busy answer. */
const RETRY_AFTER_SECONDS = 2;

export function rendererBusy(): BusyError {
  return new BusyError(
    'QR renderer is busy, please try again shortly',
    'qr_busy',
    RETRY_AFTER_SECONDS,
  );
}

/**
 * A small, bounded pool of worker threads that render PNGs off the main event loop: workers are
 * started when first needed, the queue of waiting jobs is bounded, a render that takes too long
 * is abandoned and its worker terminated, and a lost worker is replaced by the next job. The
 * main thread only posts the job and receives the image (its buffer is transferred, not copied).
 */
export class QrRenderPool {
  private readonly slots = new Set<Slot>();
  private readonly waiting: Pending[] = [];
  private running = 0;
  private closed = false;

  constructor(private readonly options: RenderPoolOptions) {}

  /** True when a new job would be refused: every worker busy and the queue full. */
  get full(): boolean {
    return this.running + this.waiting.length >= this.options.workers + this.options.queue;
  }

  /** The rendered PNG; BusyError when the pool is full or the render took too long. */
  run(job: RenderJob): Promise<Buffer> {
    if (this.closed) return Promise.reject(new Error('The QR renderer is closed'));
    if (this.full) return Promise.reject(rendererBusy());
    return new Promise<Buffer>((resolve, reject) => {
      this.waiting.push({ job, resolve, reject });
      this.dispatch();
    });
  }

  /** Stops every worker; waiting and running jobs fail. */
  async close(): Promise<void> {
    this.closed = true;
    const stopped = new Error('The QR renderer is closed');
    for (const p of this.waiting.splice(0)) p.reject(stopped);
    const workers = [...this.slots].map((slot) => slot.worker);
    for (const slot of [...this.slots]) this.lose(slot, stopped);
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private dispatch(): void {
    while (!this.closed && this.waiting.length > 0) {
      const slot = this.idleSlot();
      if (!slot) return;
      this.start(slot, this.waiting.shift()!);
    }
  }

  private idleSlot(): Slot | undefined {
    for (const slot of this.slots) if (!slot.current) return slot;
    return this.slots.size < this.options.workers ? this.spawn() : undefined;
  }

  private spawn(): Slot {
    const worker = new Worker(this.options.script, { name: 'QR render' }); // the thread's name (top -H)
    worker.unref(); // an idle worker does not keep the process alive (a running job's timer does)
    const slot: Slot = { worker };
    worker.on('message', (msg: { png?: Uint8Array; error?: string }) => {
      const png = msg.png;
      if (png) this.finish(slot, Buffer.from(png.buffer, png.byteOffset, png.byteLength));
      else this.finish(slot, new Error(`QR render failed: ${msg.error}`));
    });
    worker.on('error', (err) => this.lose(slot, err, `crashed: ${err.message}`));
    worker.on('exit', (code) =>
      this.lose(slot, new Error(`QR render worker exited (${code})`), `exited (${code})`),
    );
    this.slots.add(slot);
    return slot;
  }

  private start(slot: Slot, pending: Pending): void {
    slot.current = pending;
    this.running++;
    slot.timer = setTimeout(
      () => this.lose(slot, rendererBusy(), `stopped after ${this.options.timeoutMs} ms`),
      this.options.timeoutMs,
    );
    slot.worker.postMessage(pending.job);
  }

  private finish(slot: Slot, result: Buffer | Error): void {
    const pending = this.release(slot);
    if (result instanceof Error) pending?.reject(result);
    else pending?.resolve(result);
    this.dispatch();
  }

  /** A worker that crashed, exited or took too long: its job fails; the next job starts a new one. */
  private lose(slot: Slot, err: unknown, reason?: string): void {
    if (!this.slots.delete(slot)) return; // already lost ('error' is followed by 'exit')
    const pending = this.release(slot);
    void slot.worker.terminate();
    if (reason && !this.closed) this.options.onLost?.(reason);
    pending?.reject(err);
    this.dispatch();
  }

  private release(slot: Slot): Pending | undefined {
    const pending = slot.current;
    clearTimeout(slot.timer);
    slot.current = slot.timer = undefined;
    if (pending) this.running--;
    return pending;
  }
}
