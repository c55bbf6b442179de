import { POOL_ACQUIRE_TIMEOUT } from './errors';

/**
 * Reads the rows of `codes` on `domain` (one statement), as `[code, row]` pairs with the code as
 * the database returned it. Codes without a row are simply absent.
 */
export type BatchRead<R> = (
  domain: string,
  codes: readonly string[],
) => Promise<Iterable<readonly [string, R]>>;

export interface MissBatcherOptions {
  /** Distinct codes per statement at most. */
  maxCodes: number;
  /** Statements under way at most (below the pool size: other work needs connections too). */
  maxInFlight: number;
  /**
   * How long a code waits at most for a statement to take it (all statements under way and slow:
   * a silent database); then it fails as a pool that hands out no connection (503), as it would
   * have alone.
   */
  maxWaitMs: number;
}

/** The follows waiting for one code (usually one: FollowService shares a read per key). */
interface Queued<R> {
  /** When the first of them came (Date.now()). */
  since: number;
  resolve: Array<(row: R | null) => void>;
  reject: Array<(err: unknown) => void>;
}

/**
 * Gathers concurrent reads by code into few statements: the codes asked for in one turn of the
 * event loop (gathered until setImmediate: no wait when the process is idle), and those asked for
 * while statements are under way, go together, by domain, up to `maxCodes` per statement, at most
 * `maxInFlight` statements at a time. A row is matched to its code by exact string comparison (a
 * database collation may match more: PAD SPACE makes 'abc ' equal 'abc'). A failed statement fails
 * the reads of that statement only.
 */
export class MissBatcher<R> {
  /** Codes waiting for a statement: domain → code → waiting follows (insertion order: oldest first). */
  private readonly queued = new Map<string, Map<string, Queued<R>>>();
  private inFlight = 0;
  private scheduled = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly read: BatchRead<R>,
    private readonly options: MissBatcherOptions,
  ) {}

  /** The row of `code` on `domain`, or null when there is none. */
  get(domain: string, code: string): Promise<R | null> {
    return new Promise<R | null>((resolve, reject) => {
      let codes = this.queued.get(domain);
      if (codes === undefined) {
        codes = new Map();
        this.queued.set(domain, codes);
      }
      const q = codes.get(code);
      if (q === undefined) {
        codes.set(code, { since: Date.now(), resolve: [resolve], reject: [reject] });
      } else {
        q.resolve.push(resolve);
        q.reject.push(reject);
      }
      if (this.inFlight < this.options.maxInFlight) {
        if (!this.scheduled) {
          this.scheduled = true;
          setImmediate(this.drain);
        }
      } else if (this.timer === undefined) {
        this.arm(); // it waits for a statement to end
      }
    });
  }

  /** Statements under way (diagnostics, tests). */
  get running(): number {
    return this.inFlight;
  }

  /** Starts statements for the queued codes while a slot is free. */
  private readonly drain = (): void => {
    this.scheduled = false;
    while (this.inFlight < this.options.maxInFlight && this.queued.size > 0) {
      const [domain, codes] = this.queued.entries().next().value as [
        string,
        Map<string, Queued<R>>,
      ];
      this.queued.delete(domain);
      let batch = codes;
      if (codes.size > this.options.maxCodes) {
        batch = new Map();
        for (const [code, q] of codes) {
          batch.set(code, q);
          codes.delete(code);
          if (batch.size === this.options.maxCodes) break;
        }
        this.queued.set(domain, codes); // the rest after the other domains' codes
      }
      this.inFlight++;
      void this.run(domain, batch);
    }
    if (this.queued.size > 0 && this.timer === undefined) this.arm();
  };

  private async run(domain: string, batch: Map<string, Queued<R>>): Promise<void> {
    try {
      const rows = await this.read(domain, [...batch.keys()]);
      for (const [code, row] of rows) {
        const q = batch.get(code); // exact: a row of another code (a collation's match) finds none
        if (q === undefined) continue;
        batch.delete(code);
        for (const resolve of q.resolve) resolve(row);
      }
      for (const q of batch.values()) for (const resolve of q.resolve) resolve(null);
    } catch (err) {
      for (const q of batch.values()) for (const reject of q.reject) reject(err);
    } finally {
      this.inFlight--;
      if (this.queued.size > 0) this.drain();
    }
  }

  /** Fails the codes that waited maxWaitMs for a statement when the oldest one's time is up. */
  private arm(): void {
    let oldest = Infinity;
    for (const codes of this.queued.values()) {
      for (const q of codes.values()) oldest = Math.min(oldest, q.since);
    }
    if (oldest === Infinity) return;
    const wait = Math.max(0, oldest + this.options.maxWaitMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.expire();
      if (this.queued.size > 0) this.arm();
    }, wait);
    this.timer.unref();
  }

  private expire(): void {
    const ms = this.options.maxWaitMs;
    const limit = Date.now() - ms;
    for (const [domain, codes] of this.queued) {
      for (const [code, q] of codes) {
        if (q.since > limit) continue;
        codes.delete(code);
        const err = Object.assign(new Error(`No database connection within ${ms} ms`), {
          code: POOL_ACQUIRE_TIMEOUT,
        });
        for (const reject of q.reject) reject(err);
      }
      if (codes.size === 0) this.queued.delete(domain);
    }
  }
}
