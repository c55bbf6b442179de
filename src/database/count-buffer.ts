import { randomUUID } from 'node:crypto';
import { CommitOutcomeUnknownError } from './apply-once';

/** Writes one batch of counts with its id, exactly once (see applyOnce). */
export type BatchWriter = (
  batchId: string,
  counts: ReadonlyMap<string, number>,
) => Promise<unknown>;

interface SealedBatch {
  id: string;
  counts: Map<string, number>;
}

/**
 * Counts kept in memory and written in batches, so the request path never waits for a write
 * (use counts of the follow path; statistics aggregates).
 *
 * Nothing is lost and nothing is counted twice:
 * - a batch that failed before its commit (nothing written) is merged back into the pending counts;
 * - a batch whose commit outcome is unknown is kept as it is, with its id, and retried first: the
 *   writer recognises a batch that did commit by its id;
 * - flushes never overlap: a flush while one is running joins it.
 */
export class CountBuffer {
  private pending = new Map<string, number>();
  private readonly unsure: SealedBatch[] = [];
  /** The batch being written now (not yet known to be written). */
  private inflight: SealedBatch | null = null;
  private running: Promise<void> | null = null;

  add(key: string, n = 1): void {
    this.pending.set(key, (this.pending.get(key) ?? 0) + n);
  }

  /** Distinct keys not yet known to be written (pending, being written, retried batches). */
  get size(): number {
    return this.pending.size + this.sealed().reduce((n, b) => n + b.counts.size, 0);
  }

  private sealed(): SealedBatch[] {
    return this.inflight && !this.unsure.includes(this.inflight)
      ? [...this.unsure, this.inflight]
      : this.unsure;
  }

  /** Counts not yet known to be written, summed per key (for tests and diagnostics). */
  snapshot(): Map<string, number> {
    const all = new Map(this.pending);
    for (const b of this.sealed()) {
      for (const [k, n] of b.counts) all.set(k, (all.get(k) ?? 0) + n);
    }
    return all;
  }

  /** Writes what is buffered; joins a flush that is already running. Rejects when a write failed. */
  flush(write: BatchWriter): Promise<void> {
    this.running ??= this.flushNow(write).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Waits for a running flush, then writes everything buffered (shutdown). */
  async drain(write: BatchWriter): Promise<void> {
    await this.running?.catch(() => undefined);
    await this.flush(write);
  }

  private async flushNow(write: BatchWriter): Promise<void> {
    while (this.unsure.length) {
      await write(this.unsure[0].id, this.unsure[0].counts); // a failure keeps it for the next flush
      this.unsure.shift();
    }
    if (this.pending.size === 0) return;
    const batch: SealedBatch = { id: randomUUID(), counts: this.pending };
    this.pending = new Map();
    this.inflight = batch;
    try {
      await write(batch.id, batch.counts);
    } catch (err) {
      if (err instanceof CommitOutcomeUnknownError) this.unsure.push(batch);
      else for (const [k, n] of batch.counts) this.add(k, n);
      throw err;
    } finally {
      this.inflight = null;
    }
  }
}
