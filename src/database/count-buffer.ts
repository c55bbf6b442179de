import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CommitOutcomeUnknownError } from './apply-once';

/** Writes one batch of counts with its id, exactly once (see applyOnce). */
export type BatchWriter = (
  batchId: string,
  counts: ReadonlyMap<string, number>,
) => Promise<unknown>;

interface SealedBatch {
  id: string;
  counts: Map<string, number>;
  /** The characters of its keys (see CountBuffer.keyChars). */
  chars: number;
}

/**
 * Keys per batch at most (the default; a writer that costs more per key asks for fewer). A flush
 * writes what is pending in batches of at most this many keys, one transaction each, so no batch
 * transaction holds its locks for long, nor, as the batches of a data source take turns
 * (applyOnce), keeps the other buffer's batch waiting for long.
 */
export const MAX_BATCH_KEYS = 1000;
/** Keys per batch at least, however slow a batch was (a batch time aimed at: see CountBuffer). */
export const MIN_BATCH_KEYS = 50;

/**
 * Counts kept in memory and written in batches, so the request path never waits for a write
 * (use counts of the follow path; statistics aggregates).
 *
 * Nothing is lost and nothing is counted twice:
 * - a batch that failed before its commit (nothing written) is merged back into the pending counts;
 * - a batch whose commit outcome is unknown is kept as it is, with its id, and retried first: the
 *   writer recognises a batch that did commit by its id;
 * - flushes never overlap: a flush while one is running joins it;
 * - a flush writes what is pending when it starts in batches of at most `maxKeys` keys, one after
 *   the other, each sealed just before its write; when one fails, the keys not yet sealed are still
 *   pending.
 */
export class CountBuffer {
  private pending = new Map<string, number>();
  /** The characters of the pending keys. */
  private pendingChars = 0;
  private readonly unsure: SealedBatch[] = [];
  /** The batch the running flush is writing (not yet known to be written). */
  private writing: SealedBatch | null = null;
  private running: Promise<void> | null = null;
  /** Keys per batch of the next flush: maxKeys, or fewer when a batch time is aimed at. */
  private batchKeys: number;

  /**
   * @param maxKeys keys per batch at most.
   * @param targetMs the time a batch should take (SQLite, where a batch holds the event loop): the
   *   keys per batch follow the time per key measured in the batches written so far, between
   *   MIN_BATCH_KEYS and maxKeys.
   */
  constructor(
    private readonly maxKeys = MAX_BATCH_KEYS,
    private readonly targetMs?: number,
  ) {
    // Aiming at a time, the first batches are small until one was measured.
    this.batchKeys = targetMs === undefined ? maxKeys : Math.min(maxKeys, 4 * MIN_BATCH_KEYS);
  }

  /** Keys per batch of the next flush (diagnostics, tests). */
  get keysPerBatch(): number {
    return this.batchKeys;
  }

  /** Whether the key is pending (counted and not yet in a flush). */
  isPending(key: string): boolean {
    return this.pending.has(key);
  }

  add(key: string, n = 1): void {
    const had = this.pending.get(key);
    if (had === undefined) this.pendingChars += key.length;
    this.pending.set(key, (had ?? 0) + n);
  }

  /**
   * Distinct keys not yet known to be written (pending, being written, retried batches). Cheap
   * enough for every follow (the statistics' backlog bound): no allocation.
   */
  get size(): number {
    let n = this.pending.size + (this.writing?.counts.size ?? 0);
    for (const b of this.unsure) n += b.counts.size;
    return n;
  }

  /**
   * The characters of the distinct keys not yet known to be written (`size`'s keys): what the
   * statistics' backlog estimates its memory from. Kept up to date as keys come and go, so as
   * cheap as `size`.
   */
  get keyChars(): number {
    let n = this.pendingChars + (this.writing?.chars ?? 0);
    for (const b of this.unsure) n += b.chars;
    return n;
  }

  private sealed(): SealedBatch[] {
    return this.writing ? [...this.unsure, this.writing] : this.unsure;
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
    // The keys pending now, sealed one batch at a time just before it is written: splitting a
    // backlog of many batches at once held the event loop for tens of milliseconds (150,000 keys:
    // 76 ms). Keys added meanwhile come after these in the map's order and wait for the next flush.
    let left = this.pending.size;
    const max = this.batchKeys;
    while (left > 0) {
      const batch = this.sealNext(Math.min(max, left));
      left -= batch.counts.size;
      this.writing = batch;
      const t0 = performance.now();
      try {
        await write(batch.id, batch.counts);
        this.measured(batch.counts.size, performance.now() - t0);
      } catch (err) {
        this.writing = null;
        // The keys not yet sealed are still pending.
        if (err instanceof CommitOutcomeUnknownError) this.unsure.push(batch);
        else this.mergeBack(batch);
        throw err;
      }
      this.writing = null;
      // A turn of the event loop between batches: on SQLite a batch runs synchronously, and a
      // backlog of many batches must not hold every request until the last one is written.
      if (left > 0) await nextTurn();
    }
  }

  /** Aims the next flush's batches at targetMs: keys per batch from this batch's time per key. */
  private measured(keys: number, ms: number): void {
    if (this.targetMs === undefined || keys < MIN_BATCH_KEYS) return;
    const aimed = Math.round((keys / Math.max(ms, 0.1)) * this.targetMs);
    // Halfway towards the new aim: one slow batch (a checkpoint, a busy core) does not halve it.
    const next = Math.round((this.batchKeys + aimed) / 2);
    this.batchKeys = Math.min(this.maxKeys, Math.max(MIN_BATCH_KEYS, next));
  }

  /** The first `n` keys pending (in the order they were added), taken out as a batch. */
  private sealNext(n: number): SealedBatch {
    if (this.pending.size <= n) {
      const counts = this.pending;
      const chars = this.pendingChars;
      this.pending = new Map();
      this.pendingChars = 0;
      return { id: randomUUID(), counts, chars };
    }
    const counts = new Map<string, number>();
    let chars = 0;
    for (const [k, c] of this.pending) {
      counts.set(k, c);
      chars += k.length;
      this.pending.delete(k);
      if (counts.size === n) break;
    }
    this.pendingChars -= chars;
    return { id: randomUUID(), counts, chars };
  }

  private mergeBack(batch: SealedBatch): void {
    for (const [k, n] of batch.counts) this.add(k, n);
  }
}
