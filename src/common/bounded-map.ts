/**
 * A map of at most `max` entries, each kept for `ttlMs` after it was last written; over `max`, the
 * entries written longest ago go first. For the large bounds that guard against abuse (100,000
 * clients or deleted shorts): unlike lru-cache, which allocates its arrays for `max` entries up
 * front (about 4 MB per 100,000 with a TTL), it takes memory only for the entries it holds.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();

  constructor(
    private readonly max: number,
    private readonly ttlMs = Number.POSITIVE_INFINITY,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: K, now = Date.now()): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.until <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  has(key: K, now = Date.now()): boolean {
    return this.get(key, now) !== undefined;
  }

  set(key: K, value: V, now = Date.now()): this {
    this.entries.delete(key);
    this.entries.set(key, { value, until: now + this.ttlMs });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.max) break;
      this.entries.delete(oldest);
    }
    return this;
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }
}
