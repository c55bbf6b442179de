import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HEAP_FLAGS, heapFlags } from './heap-flags';

describe('heapFlags', () => {
  it('sets the young-generation and old-generation limits by default', () => {
    expect(heapFlags([], undefined)).toEqual([
      '--semi-space-growth-factor=1',
      '--heap-growing-percent=20',
    ]);
    expect(heapFlags(['--enable-source-maps'], '--max-old-space-size=512')).toEqual(HEAP_FLAGS);
  });

  it("leaves the heap to the operator's own heap flags (command line or NODE_OPTIONS)", () => {
    expect(heapFlags(['--max-semi-space-size=8'], undefined)).toEqual([]);
    expect(heapFlags([], '--require x --heap_growing_percent=50')).toEqual([]);
    expect(heapFlags(['--optimize-for-size'], '')).toEqual([]);
    expect(heapFlags([], '--semi-space-growth-factor=4')).toEqual([]);
  });

  it('keeps the young generation at its initial size when set at runtime (V8 reads it per GC)', () => {
    // A process that keeps many objects alive for a while: without the flag V8 grows the young
    // generation to 2 × 16 MiB; with it set at runtime, the young generation stays at 2 × 1 MiB.
    const script = `
      const v8 = require('node:v8');
      if (process.argv[1] === 'set') for (const f of ${JSON.stringify(HEAP_FLAGS)}) v8.setFlagsFromString(f);
      let keep = [];
      for (let i = 0; i < 300000; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 60000) keep = keep.slice(30000); }
      const ns = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
      process.stdout.write(String(ns.space_size / 1048576));`;
    const youngMiB = (mode: string) =>
      Number(execFileSync(process.execPath, ['-e', script, mode], { encoding: 'utf8' }));
    expect(youngMiB('set')).toBeLessThanOrEqual(2);
    expect(youngMiB('default')).toBeGreaterThan(2);
  }, 30_000);
});
