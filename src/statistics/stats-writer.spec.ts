import { describe, expect, it } from 'vitest';
import { chunksOfSizes, keys, SEP, SQLITE_CHUNKS } from './stats-writer';
import { parseAgent } from './traits';

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

describe('the aggregate keys', () => {
  const UA =
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
  const keysOf = (id: string) => [
    keys.hourly(id, 491_234, 'visits'),
    keys.value(id, 20_468, 'referrer', 'example.org'),
    keys.agent(id, 20_468, parseAgent(UA).traits),
    keys.visitor(id, 491_234, 'q5Kx0fWcJ0yqk0Qpq0m2n3ZbW1yqk0Qpq0m2n3ZbW1y'),
    keys.uses(id),
  ];

  it('hold their parts in order', () => {
    expect(SEP).toBe('\x1f');
    expect(keysOf('s1')).toEqual([
      'h\x1fs1\x1f491234\x1fvisits',
      'd\x1fs1\x1f20468\x1freferrer\x1fexample.org',
      'u\x1fs1\x1f20468\x1fChrome\x1fWindows\x1fdesktop',
      'v\x1fs1\x1f491234\x1fq5Kx0fWcJ0yqk0Qpq0m2n3ZbW1yqk0Qpq0m2n3ZbW1y',
      'n\x1fs1',
    ]);
  });
});
