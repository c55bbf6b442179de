import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OutageLog } from './outage-log';

describe('OutageLog', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('logs the start once, one count per interval, and the end; reports once per outage', () => {
    const lines: string[] = [];
    const reports: unknown[] = [];
    const outage = new OutageLog('Database', {
      log: (level, message) => lines.push(`${level}: ${message}`),
      report: (err) => reports.push(err),
    });
    for (let i = 0; i < 1000; i++) outage.failure(new Error(`e${i}`), 'ECONNREFUSED');
    expect(lines).toEqual([
      'error: Database unavailable (ECONNREFUSED): answering 503 until it is back',
    ]);
    expect(reports).toHaveLength(1);

    vi.advanceTimersByTime(10_000);
    expect(lines[1]).toBe(
      'warn: Database still unavailable (ECONNREFUSED): 999 failed calls in the last 10 s',
    );
    for (let i = 0; i < 5; i++) outage.failure(new Error('again'), 'ETIMEDOUT');
    vi.advanceTimersByTime(10_000);
    expect(lines[2]).toMatch(/5 failed calls/);
    expect(outage.isActive).toBe(true);

    vi.advanceTimersByTime(10_000); // a quiet interval ends the outage
    expect(lines[3]).toMatch(
      /^info: Database available again after about 30 s \(1005 failed calls\)$/,
    );
    expect(outage.isActive).toBe(false);
    expect(lines).toHaveLength(4);

    outage.failure(new Error('next'), 'ECONNRESET'); // a new outage is reported again
    expect(reports).toHaveLength(2);
    outage.stop();
  });
});
