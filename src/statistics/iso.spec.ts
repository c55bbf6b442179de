import { describe, expect, it } from 'vitest';
import { IsoWriter } from './iso';

describe('IsoWriter', () => {
  it('writes what toISOString writes, for whole seconds and anything else', () => {
    const w = new IsoWriter();
    const wrong: string[] = [];
    const check = (ms: number) => {
      const want = new Date(ms).toISOString();
      if (w.write(ms) !== want) wrong.push(want);
    };
    // Every 61 h 13 s from 1970 to past 9999 (leap years, centuries, the six-digit years).
    for (let ms = 0; ms < 253_402_400_000_000; ms += 219_613_000) check(ms);
    // Consecutive hours and days (the reused date), around 2000-02-29 and 2100-03-01.
    for (const base of [Date.UTC(2000, 1, 27), Date.UTC(2100, 1, 27), Date.UTC(2026, 2, 28)]) {
      for (let i = 0; i < 24 * 5; i++) check(base + i * 3_600_000 + (i % 2) * 1_800_000);
    }
    for (const ms of [-1_000, -86_400_000, 1, 999, 1_700_000_000_123, 253_402_300_799_000])
      check(ms);
    expect(wrong).toEqual([]);
  });
});
