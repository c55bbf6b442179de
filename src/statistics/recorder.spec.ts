import { describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/config';
import type { CacheBus } from '../common/cache-bus';
import type { FailureReporter } from '../failure/failure-reporter';
import type { MetricsService } from '../metrics/metrics.service';
import type { ShortService } from '../shorts/short.service';
import type { GeoLookup } from './geo';
import { StatisticsRecorder } from './recorder';
import { keys } from './stats-writer';
import { dayOfHour, hourOf } from './traits';

/** A recorder whose batches go to a map (the writers themselves are tested on real databases). */
function recorderWithTotals() {
  const noop = { inc: () => undefined };
  const recorder = new StatisticsRecorder(
    { options: { type: 'better-sqlite3', database: ':memory:' } } as unknown as DataSource,
    { stats: { enabled: true } } as AppConfig,
    { country: () => 'DE' } as unknown as GeoLookup,
    { visits: noop, botHits: noop } as unknown as MetricsService,
    {
      background: (err: unknown) => {
        throw err;
      },
    } as unknown as FailureReporter,
    {} as ShortService,
    { on: () => undefined } as unknown as CacheBus,
  );
  const totals = new Map<string, number>();
  const events: string[] = [];
  (recorder as unknown as { writer: object }).writer = {
    write: async (_id: string, counts: ReadonlyMap<string, number>) => {
      events.push('write');
      for (const [k, n] of counts) totals.set(k, (totals.get(k) ?? 0) + n);
    },
    gone: () => undefined,
    forgetSaltsBefore: () => undefined,
  };
  return { recorder, totals, events };
}

const browser = {
  acceptDanger: false,
  client: '203.0.113.7',
  visitor: {
    address: '203.0.113.7',
    userAgent: 'Mozilla/5.0 Firefox/120.0',
    referer: undefined,
    country: undefined,
  },
};

describe('StatisticsRecorder', () => {
  it('stages a flush of many shorts in slices, giving the event loop turns, and counts every follow once', async () => {
    const { recorder, totals, events } = recorderWithTotals();
    const now = Date.now();
    const ids = Array.from({ length: 1_200 }, (_, i) => `short-${i}`);
    for (const id of ids) recorder.record(id, browser, 'default', now);

    const flushing = recorder.flush();
    // A turn of the loop before the first batch is handed over; follows go on meanwhile, of shorts
    // already staged and of shorts not yet staged.
    setImmediate(() => {
      events.push('turn');
      recorder.record(ids[0], browser, 'default', now);
      recorder.record(ids[1_199], browser, 'default', now);
    });
    await flushing;
    await recorder.flush();

    expect(events[0]).toBe('turn');
    const hour = hourOf(now);
    for (const [i, id] of ids.entries()) {
      expect(totals.get(keys.hourly(id, hour, 'visits'))).toBe(i === 0 || i === 1_199 ? 2 : 1);
    }
    expect(recorder.pending()).toBe(0);
  });

  it('counts every value of a short followed many times in a second, across the list and its maps', async () => {
    const { recorder, totals } = recorderWithTotals();
    const now = Date.now();
    const hour = hourOf(now);
    const day = dayOfHour(hour);
    // 100 follows (the first ones kept as a list, then counted in maps), three user agents, seven
    // addresses, two targets, referrers of two hosts and none.
    for (let i = 0; i < 100; i++) {
      recorder.record(
        'hot',
        {
          ...browser,
          visitor: {
            address: `203.0.113.${i % 7}`,
            userAgent: `Agent/${i % 3}`,
            referer: i % 5 === 0 ? undefined : `https://${i % 2 ? 'a' : 'b'}.example/p?${i}`,
            country: i % 4 === 0 ? 'FR' : undefined,
          },
        },
        i % 10 === 0 ? '1' : 'default',
        now,
      );
    }
    recorder.record('hot', { ...browser, bot: true }, 'default', now);
    await recorder.flush();

    expect(totals.get(keys.hourly('hot', hour, 'visits'))).toBe(100);
    expect(totals.get(keys.hourly('hot', hour, 'bots'))).toBe(1);
    expect(totals.get(keys.value('hot', day, 'target', 'default'))).toBe(90);
    expect(totals.get(keys.value('hot', day, 'target', '1'))).toBe(10);
    expect(totals.get(keys.value('hot', day, 'referrer', 'direct'))).toBe(20);
    expect(totals.get(keys.value('hot', day, 'referrer', 'a.example'))).toBe(40);
    expect(totals.get(keys.value('hot', day, 'referrer', 'b.example'))).toBe(40);
    expect(totals.get(keys.value('hot', day, 'country', 'FR'))).toBe(25);
    expect(totals.get(keys.value('hot', day, 'country', 'DE'))).toBe(75);
    for (const ua of ['Agent/0', 'Agent/1', 'Agent/2']) {
      expect(totals.get(keys.agent('hot', day, ua))).toBe(ua === 'Agent/0' ? 34 : 33);
    }
    // Visitors: one digest per (address, user agent): 21 pairs, whose counts sum to the follows.
    const visitors = [...totals].filter(([k]) => k.startsWith(keys.visitor('hot', hour, '')));
    expect(visitors).toHaveLength(21);
    expect(visitors.reduce((n, [, c]) => n + c, 0)).toBe(100);
    expect(recorder.pending()).toBe(0);
  });
});
