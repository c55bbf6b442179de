import { Logger } from '@nestjs/common';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/config';
import type { CacheBus } from '../redis/cache-bus';
import type { FailureReporter } from '../failure/failure-reporter';
import type { MetricsService } from '../metrics/metrics.service';
import type { FollowStore } from '../shorts/follow-store';
import type { GeoLookup } from './geo';
import type { CountBuffer } from '../database/count-buffer';
import { KEY_BYTES, StatisticsRecorder } from './recorder';
import { keys, SEP } from './stats-writer';
import { dayOfHour, hourOf } from './traits';

/**
 * A recorder whose batches go to a map (the writers themselves are tested on real databases).
 * `before` runs before each batch is counted (it may wait or throw: a slow or failing writer);
 * with `failures`, failed flushes are collected there instead of failing the test.
 */
function recorderWithTotals(before?: () => Promise<void>, failures?: unknown[]) {
  const noop = { inc: () => undefined };
  const dropped = { n: 0, inc: () => void dropped.n++ };
  const recorder = new StatisticsRecorder(
    { options: { type: 'better-sqlite3', database: ':memory:' } } as unknown as DataSource,
    { stats: { enabled: true } } as AppConfig,
    { country: () => 'DE' } as unknown as GeoLookup,
    {
      visits: noop,
      botHits: noop,
      statsDropped: dropped,
      gauge: () => undefined,
    } as unknown as MetricsService,
    {
      background: (err: unknown) => {
        if (!failures) throw err;
        failures.push(err);
      },
    } as unknown as FailureReporter,
    {} as FollowStore,
    { on: () => undefined } as unknown as CacheBus,
  );
  const totals = new Map<string, number>();
  const events: string[] = [];
  (recorder as unknown as { writer: object }).writer = {
    write: async (_id: string, counts: ReadonlyMap<string, number>) => {
      await before?.();
      events.push('write');
      for (const [k, n] of counts) totals.set(k, (totals.get(k) ?? 0) + n);
    },
    gone: () => undefined,
    forgetSaltsBefore: () => undefined,
  };
  return { recorder, totals, events, dropped };
}

/** Whether a promise has settled after a few turns of the event loop. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  return done;
}

/** A desktop Firefox, an iPhone's Safari and an Android tablet's Chrome. */
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:120.0) Gecko/20100101 Firefox/120.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
];

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

  it("keeps a short's human visits for the webhooks up to the sink's perShort a batch, the first ones, and counts them all", async () => {
    const failures: unknown[] = [];
    const { recorder, totals } = recorderWithTotals(undefined, failures);
    const batches: Array<Array<{ shortId: string; at: number }>> = [];
    let failing = false;
    recorder.useFollowedSink({
      wanted: () => true,
      perShort: 3,
      write: async (visits) => {
        if (failing) throw new Error('outbox down');
        batches.push(visits.map((v) => ({ shortId: v.shortId, at: v.at })));
      },
    });
    const now = Date.now();
    for (let i = 0; i < 10; i++) recorder.record('busy', browser, 'default', now + i);
    recorder.record('quiet', browser, 'default', now);
    recorder.record('anonymous', browser, 'default', now, false);
    await recorder.flush();
    expect(batches).toEqual([
      [...[0, 1, 2].map((i) => ({ shortId: 'busy', at: now + i })), { shortId: 'quiet', at: now }],
    ]);
    // Every visit is counted in the statistics all the same.
    expect(totals.get(keys.hourly('busy', hourOf(now), 'visits'))).toBe(10);
    // The next batch starts anew; a failed hand-over keeps its visits and their count.
    failing = true;
    for (let i = 0; i < 2; i++) recorder.record('busy', browser, 'default', now + 20 + i);
    await recorder.flush();
    expect(failures).toHaveLength(1);
    failing = false;
    for (let i = 0; i < 5; i++) recorder.record('busy', browser, 'default', now + 30 + i);
    await recorder.flush();
    expect(batches[1]).toEqual([20, 21, 30].map((d) => ({ shortId: 'busy', at: now + d })));
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
            userAgent: AGENTS[i % 3],
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
    // The agents' traits (browser, OS, device), never the agents.
    expect(totals.get(keys.agent('hot', day, `Firefox${SEP}Windows${SEP}desktop`))).toBe(34);
    expect(totals.get(keys.agent('hot', day, `Mobile Safari${SEP}iOS${SEP}mobile`))).toBe(33);
    expect(totals.get(keys.agent('hot', day, `Chrome${SEP}Android${SEP}tablet`))).toBe(33);
    // Visitors: one digest per (address, user agent): 21 pairs, whose counts sum to the follows.
    const visitors = [...totals].filter(([k]) => k.startsWith(keys.visitor('hot', hour, '')));
    expect(visitors).toHaveLength(21);
    expect(visitors.reduce((n, [, c]) => n + c, 0)).toBe(100);
    expect(recorder.pending()).toBe(0);
  });

  describe('its backlog is bounded', () => {
    afterEach(() => vi.restoreAllMocks());

    it('at the bound a follow waits for the writer to write a batch, and is counted after it', async () => {
      let open!: () => void;
      const gate = new Promise<void>((r) => (open = r));
      const { recorder, totals, dropped } = recorderWithTotals(() => gate);
      recorder.backlogLimit = 70; // ten shorts staged (counted as seven keys each)
      recorder.roomWaitMs = 60_000; // only a batch written makes room here
      const now = Date.now();
      // Three visitors each: eight keys a short once staged (hour, four values, three visitors).
      const follow = (id: string) => {
        for (const a of [1, 2, 3]) {
          const visitor = { ...browser.visitor, address: `203.0.113.${a}` };
          recorder.record(id, { ...browser, visitor }, 'default', now);
        }
      };
      for (let i = 0; i < 9; i++) follow(`s${i}`);
      expect(recorder.room()).toBeUndefined();
      follow('s9');

      const room = recorder.room();
      expect(room).toBeInstanceOf(Promise);
      expect(recorder.room()).toBe(room); // the waiting follows share one promise
      // The flush it started is writing its batch; until that is written, the follow waits.
      expect(await settled(room!)).toBe(false);
      open();
      await room;
      await recorder.flush();
      expect(recorder.backlog()).toBe(0);
      expect(recorder.room()).toBeUndefined();
      follow('s10');
      await recorder.flush();
      const hour = hourOf(now);
      for (let i = 0; i <= 10; i++)
        expect(totals.get(keys.hourly(`s${i}`, hour, 'visits'))).toBe(3);
      expect(dropped.n).toBe(0);
    });

    it('a follow waits for the writer at most roomWaitMs', async () => {
      const { recorder } = recorderWithTotals(() => new Promise(() => undefined)); // never answers
      recorder.backlogLimit = 7;
      recorder.roomWaitMs = 30;
      recorder.record('s0', browser);
      const room = recorder.room();
      expect(room).toBeInstanceOf(Promise);
      const t0 = Date.now();
      await room;
      expect(Date.now() - t0).toBeGreaterThanOrEqual(25);
    });

    it('a failed write releases the follows waiting for room at once, and later ones do not wait', async () => {
      const failures: unknown[] = [];
      const { recorder } = recorderWithTotals(async () => {
        throw new Error('database down');
      }, failures);
      recorder.backlogLimit = 6; // a browser's follow of a new short: six keys once staged
      recorder.roomWaitMs = 60_000; // only the failure can release it here
      recorder.record('s0', browser);
      const room = recorder.room();
      expect(room).toBeInstanceOf(Promise);
      expect(await settled(room!)).toBe(true);
      expect(failures).toHaveLength(1);
      expect(recorder.backlog()).toBe(6); // still full, but the writer fails
      expect(recorder.room()).toBeUndefined();
    });

    it('while the writer fails nothing waits; beyond the bound follows keep no statistics (their uses yes), counted and logged once; the rest is written when it is back', async () => {
      const warn = vi.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      let down = true;
      const failures: unknown[] = [];
      const { recorder, totals, dropped } = recorderWithTotals(async () => {
        if (down) throw new Error('database down');
      }, failures);
      recorder.backlogLimit = 40; // dropped from 50 keys on (1.25 x)
      const now = Date.now();
      const hour = hourOf(now);
      for (let i = 0; i < 5; i++) recorder.record(`s${i}`, browser, 'default', now);
      await recorder.flush(); // fails: the keys stay in the buffer
      expect(failures).toHaveLength(1);
      const kept = recorder.backlog();
      expect(kept).toBe(30); // six keys a browser's follow of a new short: 5 x 6
      for (let i = 5; i < 12; i++) {
        expect(recorder.room()).toBeUndefined(); // no waiting while the writer fails
        recorder.uses.add(`s${i}`); // as the follow path does, before the statistics
        recorder.record(`s${i}`, browser, 'default', now);
      }
      // Each short staged counts seven keys: s5 and s6 were kept (30 + 7 = 37, 44), s7 (51 with
      // its use) and the rest dropped.
      expect(dropped.n).toBe(5);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0][0])).toMatch(
        /backlog full .*without their statistics \(1 since the last line\)/,
      );
      // The uses of the dropped follows' shorts (a key each) are all that grew beyond the bound.
      expect(recorder.backlog()).toBe(30 + 7 * 7);

      down = false;
      await recorder.flush();
      expect(recorder.backlog()).toBe(0);
      for (let i = 0; i < 12; i++) {
        expect(totals.get(keys.hourly(`s${i}`, hour, 'visits'))).toBe(i < 7 ? 1 : undefined);
        expect(totals.get(keys.uses(`s${i}`))).toBe(i >= 5 ? 1 : undefined);
      }
    });

    it('whatever a follow brings, no header is kept as it came: a 16 KB agent and an 8 KB referrer make keys of a few dozen characters', async () => {
      const { recorder, totals } = recorderWithTotals();
      const now = Date.now();
      const day = dayOfHour(hourOf(now));
      const agent = (i: number) => `${AGENTS[0]} ${'x'.repeat(16_000)}${i}`;
      const referer = (i: number) => `https://news.example/${'p'.repeat(8_000)}?${i}`;
      for (let i = 0; i < 200; i++) {
        const visitor = {
          ...browser.visitor,
          address: `203.0.113.${i % 250}`,
          userAgent: agent(i),
          referer: referer(i),
          country: 'D'.repeat(4_000),
        };
        recorder.record(i % 2 ? 'one' : `short-${i}`, { ...browser, visitor }, 'default', now);
      }
      // The estimate while staged: about a kilobyte a follow at most, far from its 24 KB of headers.
      expect(recorder.bytes()).toBeLessThan(200 * 1_200);
      const staged = recorder.bytes();
      recorder.pending(); // staged into the buffer's keys
      // The keys as the buffer holds them: every one short, and their estimate no more than staged.
      const held = (recorder as unknown as { buffer: CountBuffer }).buffer.snapshot();
      for (const k of held.keys()) expect(k.length).toBeLessThan(160);
      const chars = [...held.keys()].reduce((n, k) => n + k.length, 0);
      expect(recorder.bytes()).toBe(chars + held.size * KEY_BYTES);
      expect(recorder.bytes()).toBeLessThanOrEqual(staged);
      await recorder.flush();
      expect(totals.get(keys.agent('one', day, `Firefox${SEP}Windows${SEP}desktop`))).toBe(100);
      expect(totals.get(keys.value('one', day, 'referrer', 'news.example'))).toBe(100);
      expect(totals.get(keys.value('one', day, 'country', 'unknown'))).toBe(100);
      expect(recorder.bytes()).toBe(0);
    });

    it('in bytes: from 80 % of backlogBytesLimit a follow waits for the writer, beyond it its statistics are dropped; written and dropped make the follows', async () => {
      const warn = vi.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      let down = true;
      let open!: () => void;
      let gate = new Promise<void>((r) => (open = r));
      const failures: unknown[] = [];
      const { recorder, totals, dropped } = recorderWithTotals(async () => {
        await gate;
        if (down) throw new Error('database down');
      }, failures);
      recorder.backlogLimit = 1_000_000; // the keys' bound out of the way
      recorder.backlogBytesLimit = 40_000;
      recorder.roomWaitMs = 60_000;
      const now = Date.now();
      const hour = hourOf(now);
      // Follows of one short, each a new visitor with a long agent: a key and some 150 bytes each.
      let follows = 0;
      const follow = () => {
        const visitor = {
          ...browser.visitor,
          address: `198.51.100.${follows % 250}`,
          userAgent: `${AGENTS[follows % 3]} ${'y'.repeat(8_000)}${follows}`,
        };
        follows++;
        recorder.record('hot', { ...browser, visitor }, 'default', now);
      };
      while (recorder.bytes() < 32_000) {
        expect(recorder.room()).toBeUndefined();
        follow();
      }
      // 80 % of the bound: the next follow waits for the writer's batch (the flush it started).
      const room = recorder.room();
      expect(room).toBeInstanceOf(Promise);
      expect(await settled(room!)).toBe(false);
      open(); // the batch fails: the follows waiting are released, later ones do not wait
      await room;
      expect(failures).toHaveLength(1);
      gate = Promise.resolve();
      expect(recorder.room()).toBeUndefined();
      // Beyond the bound nothing more is kept: the backlog stays within one follow of it.
      for (let i = 0; i < 400; i++) follow();
      expect(dropped.n).toBeGreaterThan(0);
      expect(recorder.bytes()).toBeLessThan(40_000 + 1_500);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0][0])).toMatch(/backlog full \(\d+ keys, about 0\.0 MB/);

      down = false;
      await recorder.flush();
      expect(recorder.bytes()).toBe(0);
      expect(totals.get(keys.hourly('hot', hour, 'visits'))! + dropped.n).toBe(follows);
    });
  });
});
