import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { StatsEntryDto } from '../../src/statistics/statistics.dto';
import { StatisticsService, topWithOther } from '../../src/statistics/statistics.service';
import { keys, StatsWriter } from '../../src/statistics/stats-writer';
import type { Dimension } from '../../src/statistics/traits';
import { bucketStarts, type Granularity } from '../../src/statistics/zoned';
import { useTestApp } from '../support/app';
import { useBeforeAll } from '../support/hooks';
import { insertShorts } from '../support/shorts';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const NOW = Date.now();
const YEAR_AGO = NOW - 399 * DAY;
/** Zones with whole, half and quarter hour offsets, both hemispheres, DST at midnight. */
const ZONES = [
  'UTC',
  'Europe/Berlin',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'America/St_Johns',
  'America/Santiago',
  'America/Havana',
  'Atlantic/Azores',
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
];
const DIMS: Dimension[] = ['referrer', 'country', 'browser', 'os', 'device'];

/** A small deterministic random source (the same data on every engine). */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * The answer from the rows alone, as the statistics answered before the rollups: every hourly
 * row into the bucket whose hours hold it, the values of the days of the range summed.
 */
function fromRows(
  hourly: Array<{ hour: number; visits: number; visitors: number; bots: number }>,
  values: Array<{ day: number; dim: string; name: string; hits: number }>,
  fromMs: number,
  toMs: number,
  granularity: Granularity,
  tz: string,
) {
  const starts = bucketStarts(fromMs, toMs, granularity, tz);
  const bounds = starts.map((ms, i) => (i === 0 ? Math.floor(ms / HOUR) : Math.ceil(ms / HOUR)));
  bounds.push(Math.ceil(toMs / HOUR));
  const series = starts.map((s) => ({
    start: new Date(s).toISOString(),
    visits: 0,
    visitors: 0,
    bots: 0,
  }));
  const total = { visits: 0, visitors: 0, bots: 0 };
  for (const row of hourly) {
    const i = bounds.findIndex(
      (b, j) => j + 1 < bounds.length && b <= row.hour && row.hour < bounds[j + 1],
    );
    if (i < 0) continue;
    for (const k of ['visits', 'visitors', 'bots'] as const) {
      series[i][k] += row[k];
      total[k] += row[k];
    }
  }
  const first = Math.floor((starts[0] ?? fromMs) / DAY);
  const last = Math.floor((toMs - 1) / DAY);
  const lists = Object.fromEntries(
    DIMS.map((dim) => {
      const counts = new Map<string, number>();
      for (const v of values) {
        if (v.dim !== dim || v.day < first || v.day > last) continue;
        counts.set(v.name, (counts.get(v.name) ?? 0) + v.hits);
      }
      const entries: StatsEntryDto[] = [...counts].map(([name, count]) => ({ name, count }));
      return [dim, topWithOther(entries)];
    }),
  );
  return {
    total,
    series,
    referrers: lists.referrer,
    countries: lists.country,
    browsers: lists.browser,
    os: lists.os,
    devices: lists.device,
  };
}

describe('statistics rollups (daily sums, value spans) answer exactly what the rows answer', () => {
  const t = useTestApp();
  const data = useBeforeAll('a year of random statistics written by the batches', async () => {
    const [short] = await insertShorts(t, 1);
    const next = random(20261125);
    const hourly: Array<{ hour: number; visits: number; visitors: number; bots: number }> = [];
    const values: Array<{ day: number; dim: string; name: string; hits: number }> = [];
    const batch = new Map<string, number>();
    const firstHour = Math.floor((NOW - 402 * DAY) / HOUR);
    const lastHour = Math.floor(NOW / HOUR);
    for (let hour = firstHour; hour <= lastHour; hour++) {
      if (next() < 0.3) continue; // hours without visits
      const visits = 1 + Math.floor(next() * 40);
      const bots = Math.floor(next() * 3);
      batch.set(keys.hourly(short.id, hour, 'visits'), visits);
      if (bots > 0) batch.set(keys.hourly(short.id, hour, 'bots'), bots);
      hourly.push({ hour, visits, visitors: 0, bots });
    }
    for (let day = Math.floor(firstHour / 24); day <= Math.floor(lastHour / 24); day++) {
      for (const dim of DIMS) {
        for (let i = 0; i < 14; i++) {
          if (next() < 0.5) continue;
          const name = `${dim}-${i}`;
          const hits = 1 + Math.floor(next() * 9);
          batch.set(keys.value(short.id, day, dim, name), hits);
          values.push({ day, dim, name, hits });
        }
      }
    }
    const writer = new StatsWriter(t.ds, async (ids) => new Set(ids));
    expect(await writer.write(randomUUID(), batch)).toBe(true);
    return { id: short.id, hourly, values };
  });
  const service = () => t.app.get(StatisticsService);

  it('the rollups hold the sums of their rows', async () => {
    const [daily] = await t.query(
      'SELECT SUM(visits) AS v, SUM(bots) AS b, COUNT(*) AS n FROM stats_daily WHERE short_id = ?',
      [data.id],
    );
    const [hours] = await t.query(
      'SELECT SUM(visits) AS v, SUM(bots) AS b FROM stats_hourly WHERE short_id = ?',
      [data.id],
    );
    expect([Number(daily.v), Number(daily.b)]).toEqual([Number(hours.v), Number(hours.b)]);
    expect(Number(daily.n)).toBeGreaterThan(400);
    const [spans] = await t.query(
      'SELECT SUM(hits) AS h FROM stats_value_spans WHERE short_id = ?',
      [data.id],
    );
    expect(Number(spans.h)).toBe(data.values.reduce((n, v) => n + v.hits, 0));
  });

  for (const tz of ZONES) {
    it(`${tz}: a year by day and by month, 31 days by hour, odd ranges: the same as from the rows`, async () => {
      const next = random(tz.length * 7919);
      const ranges: Array<[number, number, Granularity]> = [
        [YEAR_AGO, NOW, 'day'],
        [YEAR_AGO, NOW, 'month'],
        [NOW - 31 * DAY, NOW, 'hour'],
      ];
      for (let i = 0; i < 4; i++) {
        const from = YEAR_AGO + Math.floor(next() * 300 * DAY) + Math.floor(next() * 60) * 60_000;
        const days = 1 + Math.floor(next() * 90);
        ranges.push([
          from,
          Math.min(NOW, from + days * DAY + Math.floor(next() * 1440) * 60_000),
          'day',
        ]);
      }
      for (const [fromMs, toMs, granularity] of ranges) {
        const expected = fromRows(data.hourly, data.values, fromMs, toMs, granularity, tz);
        const range = { fromMs, toMs, granularity, tz };
        const answer = await service().compute(data.id, range, NOW);
        const what = `${granularity} ${new Date(fromMs).toISOString()} – ${new Date(toMs).toISOString()}`;
        expect(answer.total, what).toEqual(expected.total);
        expect(answer.series, what).toEqual(expected.series);
        for (const list of ['referrers', 'countries', 'browsers', 'os', 'devices'] as const) {
          expect(answer[list], `${what} ${list}`).toEqual(expected[list]);
        }
        // With the retention's edge inside the range (days before it read from their rows).
        const later = await service().compute(data.id, range, NOW + 200 * DAY);
        expect(later.series, `${what}, retention edge inside`).toEqual(expected.series);
        expect(later.referrers, `${what}, retention edge inside`).toEqual(expected.referrers);
      }
    });
  }
});
