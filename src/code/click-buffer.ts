/**
 * Buffers use counts of shorts without maxUses, so a follow never waits for a write.
 * `flush` hands the batch to the writer; failed batches are merged back.
 */
export class ClickBuffer {
  private pending = new Map<string, number>();

  add(id: string): void {
    this.pending.set(id, (this.pending.get(id) ?? 0) + 1);
  }

  get size(): number {
    return this.pending.size;
  }

  async flush(write: (batch: Map<string, number>) => Promise<void>): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await write(batch);
    } catch (err) {
      for (const [id, n] of batch) this.pending.set(id, (this.pending.get(id) ?? 0) + n);
      throw err;
    }
  }
}
