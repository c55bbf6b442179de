import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/config';
import type { ShortAccessService } from '../shorts/short-access.service';
import { ValidationFailedError } from '../common/errors';
import { toProblem } from '../failure/to-problem';
import { RedisUnavailableError } from '../redis/redis-unavailable.error';
import { hourQueries, type StatisticsQuery, StatisticsService } from './statistics.service';
import { bucketStarts, maxBuckets } from './zoned';
import { MIGRATIONS } from '../database/migrations';
import { SqliteReader } from './sqlite-reader';
import { VALUE_SPAN_DAYS } from './rollups';

const DAY = 86_400_000;
const service = new StatisticsService({} as DataSource, {} as ShortAccessService, {} as AppConfig);
const NOW = Date.UTC(2026, 5, 15, 10, 17);

/** The fieldErrors of a refused query (fails when the query is accepted). */
function refused(q: StatisticsQuery): Record<string, string> {
  try {
    service.parse(q, NOW);
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationFailedError);
    return (err as ValidationFailedError).fieldErrors;
  }
  throw new Error(`accepted: ${JSON.stringify(q)}`);
}

describe('StatisticsService.parse', () => {
  it('answers the time zone in its canonical spelling, whatever the case', () => {
    expect(service.parse({ tz: 'EUROPE/BERLIN' }, NOW).tz).toBe('Europe/Berlin');
    expect(service.parse({ tz: 'america/santiago' }, NOW).tz).toBe('America/Santiago');
    expect(service.parse({}, NOW).tz).toBe('Europe/Berlin');
    expect(refused({ tz: 'Mars/Olympus' }).tz).toBeDefined();
    expect(refused({ tz: 'x'.repeat(500) }).tz).toBeDefined();
  });

  it('refuses dates before 1970 (Date.UTC would read the years 0001–0099 as 19xx)', () => {
    expect(refused({ from: '0050-01-01T00:00:00Z', to: '0050-06-01T00:00:00Z' })).toEqual({
      from: 'must not be before 1970-01-01T00:00:00Z',
      to: 'must not be before 1970-01-01T00:00:00Z',
    });
    expect(Object.keys(refused({ from: '0001-01-01', to: '2026-01-01' }))).toEqual(['from']);
    expect(Object.keys(refused({ from: '1969-12-31T23:59:59.999Z' }))).toEqual(['from']);
    expect(Object.keys(refused({ to: '1969-12-01T00:00:00Z' }))).toEqual(['to']);
    // The default `from` (30 days before `to`) stops at 1970.
    const early = service.parse({ to: '1970-01-10T00:00:00Z' }, NOW);
    expect(early.fromMs).toBe(0);
    expect(service.parse({ from: '1970-01-01T00:00:00Z', to: '1970-02-01' }, NOW).fromMs).toBe(0);
  });

  it('every accepted range holds at most 400 days (31 by hour), so the bucket loop stays short', () => {
    const cases: StatisticsQuery[] = [
      { from: '2026-01-01', to: '9999-12-31T23:59:59-23:59' },
      { from: '1970-01-01', to: '9999-12-31' },
      { from: '2026-01-01T00:00:00+14:00', to: '2027-02-05T00:00:00-12:00' },
      { to: '9999-12-31T23:59:59.999Z' },
      { from: '2025-01-01', to: '2025-03-01', granularity: 'hour' },
    ];
    for (const q of cases) {
      let range: ReturnType<StatisticsService['parse']> | undefined;
      try {
        range = service.parse(q, NOW);
      } catch (err) {
        expect(err, JSON.stringify(q)).toBeInstanceOf(ValidationFailedError);
        continue;
      }
      const span = range.toMs - range.fromMs;
      expect(span, JSON.stringify(q)).toBeLessThanOrEqual(
        (range.granularity === 'hour' ? 31 : 400) * DAY,
      );
      expect(maxBuckets(range.fromMs, range.toMs, range.granularity)).toBeLessThanOrEqual(404);
    }
    expect(Object.keys(refused({ from: '2026-01-01', to: '9999-12-31' }))).toEqual(['to']);
    expect(
      Object.keys(refused({ from: '2025-01-01', to: '2025-03-01', granularity: 'hour' })),
    ).toEqual(['granularity']);
  });

  it('every error carries an errorKey: validation_failed with the fieldErrors, 503, a bug 500', () => {
    let problem;
    try {
      service.parse({ granularity: 'week', tz: 'nowhere' }, NOW);
    } catch (err) {
      problem = toProblem(err, '/api/code/x/statistics').body;
    }
    expect(problem).toMatchObject({
      status: 400,
      detail: 'Validation failed',
      errorKey: 'validation_failed',
      fieldErrors: { granularity: expect.any(String), tz: expect.any(String) },
    });
    // What the bucket loop throws when it would pass its bound: a 500 that says nothing more.
    let tooMany: unknown;
    try {
      vi.spyOn(
        Intl.DateTimeFormat.prototype as unknown as { readonly format: unknown },
        'format',
        'get',
      ).mockReturnValue(() => '1/1/1970, 00:00:00');
      bucketStarts(Date.UTC(2026, 0, 1), Date.UTC(2026, 1, 1), 'day', 'UTC');
    } catch (err) {
      tooMany = err;
    } finally {
      vi.restoreAllMocks();
    }
    expect(tooMany).toBeInstanceOf(Error);
    expect(toProblem(tooMany, '/api/code/x/statistics')).toMatchObject({
      kind: 'unexpected',
      body: { status: 500, detail: 'An unexpected error occurred', errorKey: 'internal_error' },
    });
    // The database or Redis away: 503 service_unavailable.
    const lost = Object.assign(new Error('x'), { code: 'ECONNREFUSED' });
    for (const err of [lost, new RedisUnavailableError(lost)]) {
      expect(toProblem(err, '/api/code/x/statistics').body).toMatchObject({
        status: 503,
        errorKey: 'service_unavailable',
      });
    }
  });
});

describe('hourQueries', () => {
  /** The hours a set of queries reads, as a sorted list (each hour once). */
  const read = (queries: ReturnType<typeof hourQueries>): number[] => {
    const out: number[] = [];
    for (const q of queries) {
      if (q.where.includes('IN')) out.push(...new Set(q.params));
      else for (let h = q.params[0]; h <= q.params[1]; h++) out.push(h);
    }
    return out.sort((a, b) => a - b);
  };

  it('reads long runs as ranges and the other hours by padded IN lists, each hour once', () => {
    const wanted = [5, 7, 8, ...Array.from({ length: 100 }, (_, i) => 1_000 + i), 3_000];
    const queries = hourQueries([...wanted].reverse());
    expect(queries[0]).toEqual({ where: 'hour_no >= ? AND hour_no <= ?', params: [1_000, 1_099] });
    expect(queries).toHaveLength(2);
    expect(queries[1].params).toHaveLength(50);
    expect(queries[1].params.slice(0, 5)).toEqual([5, 7, 8, 3_000, 3_000]);
    expect(read(queries)).toEqual(wanted);
  });

  it('splits the edge hours of a year by local day into lists of at most 500, few texts', () => {
    // Two edge hours a day (a zone two hours off UTC) over a year, plus one odd hour.
    const wanted: number[] = [];
    for (let d = 20_000; d < 20_365; d++) wanted.push(d * 24 + 22, d * 24 + 23);
    wanted.push(20_365 * 24 + 5);
    const queries = hourQueries([...wanted]);
    expect(queries.map((q) => q.params.length)).toEqual([500, 250]);
    expect(read(queries)).toEqual(wanted);
    // One hour more or less keeps the texts (the lists are padded).
    const texts = (hs: number[]) => hourQueries(hs).map((q) => q.where);
    expect(texts(wanted.slice(0, -1))).toEqual(texts(wanted));
  });

  it('reads nothing for no hours', () => {
    expect(hourQueries([])).toEqual([]);
  });
});

describe('StatisticsService on a SQLite file', () => {
  it('reads on its reads’ thread, answering exactly what the app’s connection answers; a lost thread is read around', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stats-read-'));
    const ds = new DataSource({
      type: 'better-sqlite3',
      database: join(dir, 'stats.db'),
      enableWAL: true,
      migrations: MIGRATIONS,
    });
    await ds.initialize();
    const services: StatisticsService[] = [];
    try {
      await ds.runMigrations();
      await ds.query('PRAGMA foreign_keys = OFF'); // no shorts row: the statistics alone
      const short = '00000000-0000-4000-8000-000000000001';
      const to = Date.UTC(2026, 5, 1);
      const firstHour = (to - 60 * DAY) / 3_600_000;
      // 60 days of hourly counts (a pseudo-random but fixed pattern), their daily sums and values.
      const hourly: number[][] = [];
      for (let h = firstHour; h < to / 3_600_000; h++) {
        hourly.push([h, (h * 7919) % 13, (h * 104_729) % 5, (h * 31) % 3]);
      }
      const daily = new Map<number, number[]>();
      for (const [h, v, u, b] of hourly) {
        const d = Math.floor(h / 24);
        const sum = daily.get(d) ?? [0, 0, 0];
        daily.set(d, [sum[0] + v, sum[1] + u, sum[2] + b]);
      }
      for (const [h, v, u, b] of hourly) {
        await ds.query(
          'INSERT INTO stats_hourly (short_id, hour_no, visits, visitors, bots) VALUES (?, ?, ?, ?, ?)',
          [short, h, v, u, b],
        );
      }
      for (const [d, [v, u, b]] of daily) {
        await ds.query(
          'INSERT INTO stats_daily (short_id, day_no, visits, visitors, bots) VALUES (?, ?, ?, ?, ?)',
          [short, d, v, u, b],
        );
        for (const [dim, name, hits] of [
          ['referrer', 't.co', d % 7],
          ['country', 'DE', 3],
          ['browser', 'Firefox', d % 4],
        ] as const) {
          await ds.query(
            'INSERT INTO stats_values (short_id, day_no, dim, name, hits) VALUES (?, ?, ?, ?, ?)',
            [short, d, dim, name, hits],
          );
        }
      }
      await ds.query(
        `INSERT INTO stats_value_spans (short_id, span_no, dim, name, hits) SELECT short_id, day_no / ${VALUE_SPAN_DAYS}, dim, name, SUM(hits) FROM stats_values GROUP BY short_id, day_no / ${VALUE_SPAN_DAYS}, dim, name`,
      );
      const config = { stats: { retentionDays: 400 }, dbTimeoutMs: 2000 } as AppConfig;
      const make = () => {
        const s = new StatisticsService(ds, {} as ShortAccessService, config);
        services.push(s);
        return s as unknown as { reader?: SqliteReader | null } & Pick<
          StatisticsService,
          'compute'
        >;
      };
      const onThread = make();
      const onMain = make();
      onMain.reader = null; // the app's connection, as for SQLite in memory
      const lost = make();
      lost.reader = new SqliteReader({
        script: join(dir, 'missing.worker.mjs'),
        file: join(dir, 'stats.db'),
        timeoutMs: 2000,
        cacheKib: 512,
        statements: 4,
        idleMs: 60_000,
      });
      const ranges = ['Europe/Berlin', 'America/Santiago', 'Asia/Kolkata'].flatMap((tz) => [
        { fromMs: to - 58 * DAY, toMs: to, granularity: 'day' as const, tz },
        { fromMs: to - 20 * DAY - 5 * 3_600_000, toMs: to - DAY, granularity: 'hour' as const, tz },
      ]);
      for (const range of ranges) {
        const expected = await onMain.compute(short, range, to);
        expect(expected.total.visits).toBeGreaterThan(0);
        expect(await onThread.compute(short, range, to)).toEqual(expected);
        expect(await lost.compute(short, range, to)).toEqual(expected);
      }
      // The thread that cannot start was tried once; the other reads went around it at once.
      expect(lost.reader?.started).toBe(1);
      expect(onThread.reader?.started).toBe(1);
      expect(onThread.reader?.threadId).toBeGreaterThan(0);
    } finally {
      for (const s of services) await s.onApplicationShutdown();
      await ds.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('StatisticsService plans', () => {
  it('keeps a range’s plan for any short (each answered from its own rows), at most 32 plans', async () => {
    const ds = new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      migrations: MIGRATIONS,
    });
    await ds.initialize();
    try {
      await ds.runMigrations();
      await ds.query('PRAGMA foreign_keys = OFF'); // no shorts rows: the statistics alone
      const shorts = [
        '00000000-0000-4000-8000-00000000000a',
        '00000000-0000-4000-8000-00000000000b',
      ];
      const to = Date.UTC(2026, 5, 1, 13, 30);
      const firstHour = Math.floor((to - 40 * DAY) / 3_600_000);
      for (const [i, short] of shorts.entries()) {
        const days = new Map<number, number>();
        for (let h = firstHour; h < to / 3_600_000; h++) {
          const visits = (h * (i + 3)) % 7;
          await ds.query(
            'INSERT INTO stats_hourly (short_id, hour_no, visits, visitors, bots) VALUES (?, ?, ?, 0, 0)',
            [short, h, visits],
          );
          days.set(Math.floor(h / 24), (days.get(Math.floor(h / 24)) ?? 0) + visits);
        }
        for (const [d, visits] of days) {
          await ds.query(
            'INSERT INTO stats_daily (short_id, day_no, visits, visitors, bots) VALUES (?, ?, ?, 0, 0)',
            [short, d, visits],
          );
          await ds.query(
            'INSERT INTO stats_values (short_id, day_no, dim, name, hits) VALUES (?, ?, ?, ?, ?)',
            [short, d, 'country', i ? 'FR' : 'DE', visits],
          );
        }
      }
      const config = { stats: { retentionDays: 400 }, dbTimeoutMs: 2000 } as AppConfig;
      const kept = new StatisticsService(ds, {} as ShortAccessService, config);
      const ranges = ['Europe/Berlin', 'Asia/Kolkata'].flatMap((tz) => [
        { fromMs: to - 35 * DAY, toMs: to, granularity: 'day' as const, tz },
        { fromMs: to - 3 * DAY, toMs: to - 3_600_000, granularity: 'hour' as const, tz },
      ]);
      for (const range of ranges) {
        for (const short of shorts) {
          const fresh = new StatisticsService(ds, {} as ShortAccessService, config);
          const expected = await fresh.compute(short, range, to);
          expect(expected.total.visits).toBeGreaterThan(0);
          expect(await kept.compute(short, range, to)).toEqual(expected);
        }
      }
      const plans = (kept as unknown as { plans: { size: number } }).plans;
      expect(plans.size).toBe(ranges.length);
      for (let i = 0; i < 40; i++) {
        await kept.compute(shorts[0], { ...ranges[0], fromMs: ranges[0].fromMs - i * DAY }, to);
      }
      expect(plans.size).toBe(32);
    } finally {
      await ds.destroy();
    }
  });
});

describe('StatisticsService on PostgreSQL', () => {
  it('sends a year’s statement prepared by name, its single hours one array: one text for ranges with other hours', async () => {
    const sent: Array<{ name?: string; text: string; values: unknown[] }> = [];
    let released = 0;
    const client = {
      query: async (config: { name: string; text: string; values: unknown[] }) => {
        sent.push(config);
        return { rows: [{ j: '[[0,20000,3,2,1,null,null]]' }] };
      },
    };
    const ds = {
      options: { type: 'postgres' },
      driver: { obtainMasterConnection: async () => [client, () => released++] },
      query: async (text: string, values: unknown[]) => {
        sent.push({ text, values });
        return [{ j: '[]' }];
      },
    } as unknown as DataSource;
    const config = { stats: { retentionDays: 400 }, dbTimeoutMs: 2000 } as AppConfig;
    const stats = new StatisticsService(ds, {} as ShortAccessService, config);
    const short = '00000000-0000-4000-8000-00000000000a';
    // Two years by Berlin days whose edge hours differ (a summer and a winter end), and a third.
    for (const to of [Date.UTC(2026, 5, 1, 13, 30), Date.UTC(2026, 11, 1, 7, 30), NOW]) {
      await stats.compute(
        short,
        { fromMs: to - 365 * DAY, toMs: to, granularity: 'day', tz: 'Europe/Berlin' },
        to,
      );
    }
    expect(sent).toHaveLength(3);
    expect(released).toBe(3);
    expect(new Set(sent.map((s) => s.name)).size).toBe(1);
    expect(sent[0].name).toMatch(/^url_shorter_statistics_/);
    expect(new Set(sent.map((s) => s.text)).size).toBe(1);
    for (const { text, values } of sent) {
      expect(text).toContain('= ANY($');
      expect(values.length).toBeLessThan(20);
      const hours = values.find(Array.isArray) as number[];
      expect(hours.length).toBeGreaterThan(500);
      expect(new Set(hours).size).toBe(hours.length);
    }
    expect(sent[0].values).not.toEqual(sent[1].values);
  });
});
