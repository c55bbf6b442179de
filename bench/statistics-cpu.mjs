#!/usr/bin/env node
// CPU of the largest legal statistics queries: `node bench/statistics-cpu.mjs` (after `npm run build`).
//
// For the zones whose DST begins at midnight (issue 18: America/Santiago, America/Havana,
// Atlantic/Azores) and some others, 400 days by day and by month and 31 days by hour:
// - bucketStarts: the bucket loop alone (for month also the days it sums), first call in the process
//   (a new zone's formatters) and the median of the following calls;
// - compute: the whole answer on an in-memory SQLite database holding 400 days of hourly data and
//   daily values for the short. better-sqlite3 answers synchronously, so compute holds the event loop
//   for all of its duration: the figure CONTRACT "Limits" bounds (a follow within 250 ms).
// Prints milliseconds: the process's CPU time (user + system, robust on a busy machine) and the wall
// time (what the event loop is held for; on a quiet machine about the same). Nothing is asserted.
// Environment: STATS_CPU_RUNS (20) calls per case, STATS_CPU_ZONES (a comma list of zones).
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
const { DataSource } = require('typeorm');
const { bucketStarts } = require('../dist/src/statistics/zoned.js');
const { StatisticsService } = require('../dist/src/statistics/statistics.service.js');
const { MIGRATIONS } = require('../dist/src/database/migrations/index.js');
const { VALUE_SPAN_DAYS } = require('../dist/src/statistics/rollups.js');

const DAY = 86_400_000;
const HOUR = 3_600_000;
const TO = Date.UTC(2026, 5, 1);
const RUNS = Number(process.env.STATS_CPU_RUNS ?? 20);
const SHORT = '00000000-0000-4000-8000-000000000001';

// The app's own schema (its migrations), without foreign keys: the bench has no shorts row.
const ds = new DataSource({ type: 'better-sqlite3', database: ':memory:', migrations: MIGRATIONS });
await ds.initialize();
await ds.runMigrations();
await ds.query('PRAGMA foreign_keys = OFF');
const rows = [];
for (let h = Math.floor((TO - 420 * DAY) / HOUR); h < TO / HOUR; h++)
  rows.push([SHORT, h, 7, 3, 1]);
for (let i = 0; i < rows.length; i += 200) {
  const chunk = rows.slice(i, i + 200);
  await ds.query(
    `INSERT INTO stats_hourly (short_id, hour_no, visits, visitors, bots) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
    chunk.flat(),
  );
}
// The daily rollup: each UTC day's sum of its hours (7, 3, 1 an hour).
const daily = [];
for (let d = Math.floor((TO - 420 * DAY) / DAY); d < TO / DAY; d++)
  daily.push([SHORT, d, 168, 72, 24]);
for (let i = 0; i < daily.length; i += 200) {
  const chunk = daily.slice(i, i + 200);
  await ds.query(
    `INSERT INTO stats_daily (short_id, day_no, visits, visitors, bots) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
    chunk.flat(),
  );
}
const values = [];
for (let d = Math.floor(TO / DAY) - 420; d < TO / DAY; d++) {
  for (const [dim, names] of [
    ['referrer', ['direct', 'google.com', 't.co', 'news.ycombinator.com', 'example.org']],
    ['country', ['DE', 'CL', 'US', 'FR']],
    ['browser', ['Chrome', 'Firefox', 'Mobile Safari']],
    ['os', ['Windows', 'Mac OS', 'iOS', 'Android']],
    ['device', ['desktop', 'mobile', 'tablet']],
  ]) {
    for (const name of names) values.push([SHORT, d, dim, name, 5]);
  }
}
for (let i = 0; i < values.length; i += 200) {
  const chunk = values.slice(i, i + 200);
  await ds.query(
    `INSERT INTO stats_values (short_id, day_no, dim, name, hits) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
    chunk.flat(),
  );
}
// The value spans: the sums of VALUE_SPAN_DAYS days of values.
await ds.query(
  `INSERT INTO stats_value_spans (short_id, span_no, dim, name, hits) SELECT short_id, day_no / ${VALUE_SPAN_DAYS}, dim, name, SUM(hits) FROM stats_values GROUP BY short_id, day_no / ${VALUE_SPAN_DAYS}, dim, name`,
);

// Only compute() is called: no short lookup; STATS_RETENTION_DAYS at its default; "now" is the end of the range.
const service = new StatisticsService(ds, undefined, { stats: { retentionDays: 400 } });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** CPU and wall milliseconds of `fn`. */
async function timed(fn) {
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const result = await fn();
  const wall = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / 1000, wall, result };
}
const cases = [];
const ZONES = process.env.STATS_CPU_ZONES?.split(',') ?? [
  'America/Santiago',
  'America/Havana',
  'Atlantic/Azores',
  'Europe/Berlin',
  'Pacific/Apia',
  'Asia/Kolkata',
];
for (const tz of ZONES) {
  cases.push([tz, 'day', 400], [tz, 'month', 400], [tz, 'hour', 31]);
}
const f = (ms) => ms.toFixed(2).padStart(8);
console.log(
  'zone              granularity buckets | bucketStarts: first wall, median cpu | compute: median cpu, median wall, max wall',
);
for (const [tz, granularity, days] of cases) {
  const fromMs = TO - days * DAY;
  const loop = () => {
    const starts = bucketStarts(fromMs, TO, granularity, tz);
    if (granularity === 'month') bucketStarts(starts[0], TO, 'day', tz);
    return starts.length;
  };
  const first = await timed(loop);
  const loops = [];
  for (let i = 0; i < RUNS; i++) loops.push((await timed(loop)).cpu);
  const computes = [];
  for (let i = 0; i < RUNS; i++) {
    computes.push(
      await timed(() => service.compute(SHORT, { fromMs, toMs: TO, granularity, tz }, TO)),
    );
  }
  const walls = computes.map((c) => c.wall);
  console.log(
    `${tz.padEnd(18)}${granularity.padEnd(12)}${String(first.result).padStart(7)} | ${' '.repeat(9)}${f(first.wall)}${f(median(loops))} | ${' '.repeat(3)}${f(median(computes.map((c) => c.cpu)))}${f(median(walls))}${f(Math.max(...walls))}`,
  );
}
await ds.destroy();
