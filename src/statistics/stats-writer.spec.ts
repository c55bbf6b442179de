import { describe, expect, it } from 'vitest';
import { chunksOfSizes, SQLITE_CHUNKS } from './stats-writer';

const sizes = (n: number) =>
  [
    ...chunksOfSizes(
      Array.from({ length: n }, (_, i) => i),
      SQLITE_CHUNKS,
    ),
  ].map((c) => c.length);

describe('the SQLite chunk sizes of a batch', () => {
  it('come from the few fixed sizes, largest first, so that the statements repeat', () => {
    expect(sizes(437)).toEqual([100, 100, 100, 100, 20, 5, 5, 5, 1, 1]);
    expect(sizes(1_203)).toEqual([500, 500, 100, 100, 1, 1, 1]);
    expect(sizes(3)).toEqual([1, 1, 1]);
    expect(sizes(0)).toEqual([]);
    const seen = new Set<number>();
    for (let n = 1; n <= 1_500; n++) for (const s of sizes(n)) seen.add(s);
    expect([...seen].sort((a, b) => b - a)).toEqual(SQLITE_CHUNKS);
  });

  it('hold every row once, in order', () => {
    const rows = Array.from({ length: 777 }, (_, i) => `r${i}`);
    expect([...chunksOfSizes(rows, SQLITE_CHUNKS)].flat()).toEqual(rows);
  });
});
