import { describe, expect, it } from 'vitest';
import type { CacheBus } from '../redis/cache-bus';
import { TAG_SPACES_CHANGED_CHANNEL } from './short-events';
import { TagCountCache, TagCountStore, type TaggedCount } from './tag-count-cache';

const value = (count: number, rarest = 'a'): TaggedCount => ({ count, rarest });

/** The cache bus of one instance without Redis: delivered here, at once. */
class LocalBus {
  readonly published: Array<[string, string]> = [];
  private readonly handlers = new Map<string, Array<(m: string) => void>>();
  private readonly resyncs: Array<() => void> = [];
  on(channel: string, handler: (m: string) => void): void {
    this.handlers.set(channel, [...(this.handlers.get(channel) ?? []), handler]);
  }
  onResync(handler: () => void): void {
    this.resyncs.push(handler);
  }
  publish(channel: string, message: string): void {
    this.published.push([channel, message]);
    for (const h of this.handlers.get(channel) ?? []) h(message);
  }
  resync(): void {
    for (const h of this.resyncs) h();
  }
}

/** A read that the test settles. */
function deferred(): {
  read: () => Promise<TaggedCount>;
  calls: () => number;
  settle: (v: TaggedCount) => void;
} {
  let calls = 0;
  let settle: (v: TaggedCount) => void = () => undefined;
  return {
    read: () => {
      calls++;
      return new Promise<TaggedCount>((resolve) => (settle = resolve));
    },
    calls: () => calls,
    settle: (v) => settle(v),
  };
}

describe('TagCountStore', () => {
  it('keys a space and a set of tags, in any order and with repeats', () => {
    expect(TagCountStore.keyOf('u:1', ['b', 'a', 'b'])).toBe(
      TagCountStore.keyOf('u:1', ['a', 'b']),
    );
    expect(TagCountStore.keyOf('u:1', ['a'])).not.toBe(TagCountStore.keyOf('u:2', ['a']));
    expect(TagCountStore.keyOf('u:1', ['a', 'b'])).not.toBe(TagCountStore.keyOf('u:1', ['a']));
  });

  it('keeps at most `max` counts, the least recently used going first', () => {
    const store = new TagCountStore({ max: 3 });
    const t = store.ticket();
    for (const k of ['a', 'b', 'c']) store.set('u:1', k, value(1), t);
    expect(store.get('u:1', 'a')).toEqual(value(1)); // a used: b is the oldest now
    store.set('u:1', 'd', value(2), t);
    expect(store.size).toBe(3);
    expect(store.get('u:1', 'b')).toBeUndefined();
    expect(store.get('u:1', 'a')).toEqual(value(1));
    expect(store.get('u:1', 'd')).toEqual(value(2));
  });

  it('forgets a count after its TTL', () => {
    let now = 1_000;
    const store = new TagCountStore({ ttlMs: 30_000, now: () => now });
    store.set('u:1', 'k', value(5), store.ticket());
    now += 29_999;
    expect(store.get('u:1', 'k')).toEqual(value(5));
    now += 2;
    expect(store.get('u:1', 'k')).toBeUndefined();
  });

  it('drops the counts of one space only', () => {
    const store = new TagCountStore();
    const t = store.ticket();
    store.set('u:1', TagCountStore.keyOf('u:1', ['a']), value(1), t);
    store.set('u:1', TagCountStore.keyOf('u:1', ['a', 'b']), value(2), t);
    store.set('t:9', TagCountStore.keyOf('t:9', ['a']), value(3), t);
    store.drop('u:1');
    expect(store.get('u:1', TagCountStore.keyOf('u:1', ['a']))).toBeUndefined();
    expect(store.get('u:1', TagCountStore.keyOf('u:1', ['a', 'b']))).toBeUndefined();
    expect(store.get('t:9', TagCountStore.keyOf('t:9', ['a']))).toEqual(value(3));
    // Counted after the drop: kept.
    expect(store.set('u:1', 'k', value(4), store.ticket())).toBe(true);
    expect(store.get('u:1', 'k')).toEqual(value(4));
  });

  it('does not keep a count whose read began before a drop of its space', () => {
    const store = new TagCountStore();
    const before = store.ticket();
    store.drop('u:1'); // a write committed while the count was read
    expect(store.set('u:1', 'k', value(7), before)).toBe(false);
    expect(store.get('u:1', 'k')).toBeUndefined();
    // Another space's count of that moment is kept.
    expect(store.set('u:2', 'k2', value(7), before)).toBe(true);
    expect(store.get('u:2', 'k2')).toEqual(value(7));
  });

  it('beyond the spaces it remembers, counts older than the oldest forgotten drop are stale', () => {
    const store = new TagCountStore({ spacesMax: 2 });
    const early = store.ticket();
    store.set('u:a', 'a', value(1), early);
    store.set('u:d', 'd', value(1), early);
    store.drop('u:a');
    const middle = store.ticket();
    store.set('u:e', 'e', value(1), middle);
    store.drop('u:b');
    store.drop('u:c'); // u:a's drop is forgotten: the floor is its tick
    expect(store.get('u:a', 'a')).toBeUndefined();
    // Never dropped, but counted before the forgotten drop: a miss, never a stale count.
    expect(store.get('u:d', 'd')).toBeUndefined();
    // Counted after it: still good.
    expect(store.get('u:e', 'e')).toEqual(value(1));
    expect(store.set('u:a', 'a', value(2), early)).toBe(false);
    expect(store.set('u:a', 'a', value(2), store.ticket())).toBe(true);
  });

  it('clear drops everything, and reads that began before it', () => {
    const store = new TagCountStore();
    const before = store.ticket();
    store.set('u:1', 'k', value(1), before);
    store.clear();
    expect(store.size).toBe(0);
    expect(store.set('u:2', 'k2', value(1), before)).toBe(false);
    expect(store.set('u:2', 'k2', value(1), store.ticket())).toBe(true);
  });
});

describe('TagCountCache', () => {
  const setup = () => {
    const bus = new LocalBus();
    return { bus, cache: new TagCountCache(bus as unknown as CacheBus) };
  };

  it('counts once for a burst and for the pages after it', async () => {
    const { cache } = setup();
    const d = deferred();
    const first = cache.count('u:1', ['a', 'b'], d.read);
    const second = cache.count('u:1', ['b', 'a'], d.read);
    d.settle(value(9, 'b'));
    expect(await first).toEqual(value(9, 'b'));
    expect(await second).toEqual(value(9, 'b'));
    expect(await cache.count('u:1', ['a', 'b'], d.read)).toEqual(value(9, 'b'));
    expect(d.calls()).toBe(1);
  });

  it('a drop while a count is read: not kept, and not shared with reads after the drop', async () => {
    const { cache } = setup();
    const stale = deferred();
    const pending = cache.count('u:1', ['a'], stale.read);
    cache.spacesChanged(['u:1']);
    const fresh = deferred();
    const after = cache.count('u:1', ['a'], fresh.read);
    expect(fresh.calls()).toBe(1); // its own read, not the one that began before the drop
    stale.settle(value(1));
    fresh.settle(value(2));
    expect(await pending).toEqual(value(1));
    expect(await after).toEqual(value(2));
    const none = deferred();
    expect(await cache.count('u:1', ['a'], none.read)).toEqual(value(2));
    expect(none.calls()).toBe(0);
  });

  it('spacesChanged publishes each space once (anonymous: none) and drops them', async () => {
    const { bus, cache } = setup();
    await cache.count('u:1', ['a'], async () => value(1));
    await cache.count('t:2', ['a'], async () => value(2));
    await cache.count('u:3', ['a'], async () => value(3));
    cache.spacesChanged(['u:1', null, 't:2', 'u:1']);
    cache.spacesChanged([null]);
    expect(bus.published).toEqual([[TAG_SPACES_CHANGED_CHANNEL, 'u:1,t:2']]);
    let reads = 0;
    const read = async () => (reads++, value(0));
    await cache.count('u:1', ['a'], read);
    await cache.count('t:2', ['a'], read);
    expect(await cache.count('u:3', ['a'], read)).toEqual(value(3));
    expect(reads).toBe(2);
  });

  it('a message of another instance drops the space; a resync (Redis back) drops all', async () => {
    const { bus, cache } = setup();
    await cache.count('u:1', ['a'], async () => value(1));
    await cache.count('u:2', ['a'], async () => value(2));
    bus.publish(TAG_SPACES_CHANGED_CHANNEL, 'u:1');
    expect(await cache.count('u:1', ['a'], async () => value(10))).toEqual(value(10));
    expect(await cache.count('u:2', ['a'], async () => value(20))).toEqual(value(2));
    bus.resync();
    expect(cache.size).toBe(0);
    expect(await cache.count('u:2', ['a'], async () => value(20))).toEqual(value(20));
  });

  it('a failed read is not kept', async () => {
    const { cache } = setup();
    await expect(
      cache.count('u:1', ['a'], () => Promise.reject(new Error('db down'))),
    ).rejects.toThrow('db down');
    expect(await cache.count('u:1', ['a'], async () => value(4))).toEqual(value(4));
  });
});
