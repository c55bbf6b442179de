import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { CacheBus } from '../redis/cache-bus';
import { TAG_SPACES_CHANGED_CHANNEL } from './short-events';

/** What the own list's tag filter counts (ShortRepository.taggedCount): the total and the rarest tag. */
export interface TaggedCount {
  count: number;
  rarest: string;
}

/** Counts kept at most (one per space and set of tags), and for how long at most. */
export const TAG_COUNT_CACHE_MAX = 10_000;
export const TAG_COUNT_CACHE_TTL_MS = 30_000;
/** Spaces whose last drop is remembered (older drops count as one, at the oldest remembered). */
export const TAG_COUNT_SPACES_MAX = 10_000;

interface Entry {
  value: TaggedCount;
  /** The ticket of the read that counted it (TagCountStore.ticket). */
  ticket: number;
}

/**
 * The counts of the own list's tag filter by (space, set of tag keys), bounded (an LRU of
 * TAG_COUNT_CACHE_MAX entries, each at most TAG_COUNT_CACHE_TTL_MS old), and dropped per space.
 * A drop is a tick of one counter remembered for the space: an entry (or a read under way) whose
 * ticket, taken before its read began, is older than its space's last drop is not used, so a count
 * that began before a write's drop is never served after it, wherever it ends. The last drops of
 * TAG_COUNT_SPACES_MAX spaces are remembered; a space beyond them counts as dropped when the
 * oldest of them was (more misses, never a stale count).
 */
export class TagCountStore {
  private readonly entries: LRUCache<string, Entry>;
  /** Each space's last drop (its tick), oldest first. */
  private readonly drops = new Map<string, number>();
  /** The tick of the last drop forgotten (TAG_COUNT_SPACES_MAX), or of the last clear. */
  private floor = 0;
  private tick = 0;

  private readonly spacesMax: number;

  /** `now`: the clock of the TTL (tests). */
  constructor({
    max = TAG_COUNT_CACHE_MAX,
    ttlMs = TAG_COUNT_CACHE_TTL_MS,
    spacesMax = TAG_COUNT_SPACES_MAX,
    now,
  }: { max?: number; ttlMs?: number; spacesMax?: number; now?: () => number } = {}) {
    this.spacesMax = spacesMax;
    this.entries = new LRUCache<string, Entry>({
      max,
      ttl: ttlMs,
      ...(now ? { perf: { now }, ttlResolution: 0 } : {}),
    });
  }

  /** The cache's key of a space and a set of tag keys (distinct, in any order). */
  static keyOf(space: string, keys: readonly string[]): string {
    return `${space}\n${[...new Set(keys)].sort().join('\n')}`;
  }

  /** Taken before a count is read: the read may be kept only while no drop of its space followed. */
  ticket(): number {
    return this.tick;
  }

  /** Whether nothing of `space` was dropped since `ticket` was taken. */
  current(space: string, ticket: number): boolean {
    return ticket >= (this.drops.get(space) ?? this.floor);
  }

  get(space: string, key: string): TaggedCount | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (this.current(space, hit.ticket)) return hit.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Keeps a count read since `ticket`, unless its space was dropped meanwhile; true when kept. */
  set(space: string, key: string, value: TaggedCount, ticket: number): boolean {
    if (!this.current(space, ticket)) return false;
    this.entries.set(key, { value, ticket });
    return true;
  }

  /** Drops every count of a space (its entries are found stale when next read). */
  drop(space: string): void {
    const tick = ++this.tick;
    this.drops.delete(space);
    this.drops.set(space, tick);
    if (this.drops.size > this.spacesMax) {
      const [oldest, at] = this.drops.entries().next().value as [string, number];
      this.drops.delete(oldest);
      this.floor = Math.max(this.floor, at);
    }
  }

  /** Drops every count. */
  clear(): void {
    this.floor = ++this.tick;
    this.drops.clear();
    this.entries.clear();
  }

  /** Counts held (tests, metrics; stale ones included until they are read or pushed out). */
  get size(): number {
    return this.entries.size;
  }
}

/**
 * The own list's tag counts per (space, set of tags) (TagCountStore), kept in process: a list
 * paged through one filter counts once (the two-tag count's INTERSECT took 6.5 ms of SQLite's event
 * loop on every page). Every write of a space's `short_tags` (a create with tags, an edit of the tags
 * or the space, a bulk edit, a delete: the repositories and the bulk edit call `spacesChanged`
 * after their transaction) drops the space's counts on every instance through the cache bus
 * (TAG_SPACES_CHANGED_CHANNEL), and all of them after a Redis outage (resync). Concurrent misses of
 * one key share one read.
 */
@Injectable()
export class TagCountCache {
  private readonly store = new TagCountStore();
  /** Reads under way by key, with their tickets (only while they run: bounded by the requests). */
  private readonly loading = new Map<string, { ticket: number; read: Promise<TaggedCount> }>();

  constructor(private readonly bus: CacheBus) {
    bus.on(TAG_SPACES_CHANGED_CHANNEL, (message) => {
      for (const space of message.split(',')) if (space) this.store.drop(space);
    });
    bus.onResync(() => this.store.clear());
  }

  /**
   * The count of `keys` (distinct tag keys) in `space` (its `short_tags.space` key): kept, or
   * read by `read` (and kept unless the space was dropped while it ran).
   */
  count(
    space: string,
    keys: readonly string[],
    read: () => Promise<TaggedCount>,
  ): Promise<TaggedCount> {
    const key = TagCountStore.keyOf(space, keys);
    const hit = this.store.get(space, key);
    if (hit) return Promise.resolve(hit);
    const underway = this.loading.get(key);
    if (underway && this.store.current(space, underway.ticket)) return underway.read;
    const ticket = this.store.ticket();
    const pending = read();
    this.loading.set(key, { ticket, read: pending });
    pending
      .then((value) => this.store.set(space, key, value, ticket))
      .catch(() => undefined)
      .finally(() => {
        if (this.loading.get(key)?.read === pending) this.loading.delete(key);
      });
    return pending;
  }

  /**
   * The `short_tags` of these spaces changed (committed, or perhaps committed): their counts go on
   * every instance. Anonymous shorts (null) have no space.
   */
  spacesChanged(spaces: Iterable<string | null>): void {
    const distinct = new Set<string>();
    for (const s of spaces) if (s) distinct.add(s);
    if (distinct.size) this.bus.publish(TAG_SPACES_CHANGED_CHANNEL, [...distinct].join(','));
  }

  /** Counts held (tests). */
  get size(): number {
    return this.store.size;
  }
}
