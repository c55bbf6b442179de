import { describe, expect, it } from 'vitest';
import { BoundedMap } from './bounded-map';

describe('BoundedMap', () => {
  it('keeps at most max entries: the ones written longest ago go first', () => {
    const m = new BoundedMap<string, number>(3);
    for (const [i, k] of ['a', 'b', 'c'].entries()) m.set(k, i);
    m.set('a', 10); // written again: now the newest
    m.set('d', 3);
    expect(m.size).toBe(3);
    expect(m.get('b')).toBeUndefined();
    expect([m.get('a'), m.get('c'), m.get('d')]).toEqual([10, 2, 3]);
  });

  it('forgets an entry ttlMs after it was written', () => {
    const m = new BoundedMap<string, boolean>(10, 1_000);
    m.set('x', true, 5_000);
    expect(m.has('x', 5_999)).toBe(true);
    expect(m.has('x', 6_000)).toBe(false);
    expect(m.size).toBe(0);
    m.set('y', false, 0);
    expect(m.has('y', 1)).toBe(true); // a stored false is still an entry
  });

  it('takes memory only for what it holds (a bound of 100,000 costs nothing empty)', () => {
    const m = new BoundedMap<number, number>(100_000);
    for (let i = 0; i < 150_000; i++) m.set(i, i);
    expect(m.size).toBe(100_000);
    expect(m.get(49_999)).toBeUndefined();
    expect(m.get(50_000)).toBe(50_000);
    expect(m.delete(50_000)).toBe(true);
    expect(m.size).toBe(99_999);
  });
});
