#!/usr/bin/env node
// What a short followed for the first time costs the statistics writer on SQLite, statement by statement:
// `node bench/statistics-write-cost.mjs` (no build needed).
//
// A SQLite file (WAL, synchronous NORMAL, foreign keys on, a 2 MiB page cache: the app's options) with
// the statistics tables as the migrations make them and SW_SHORTS shorts, 20 batches of 5,000 shorts'
// rows written first, then 8 timed batches of SW_BATCH random shorts, each written as StatsWriter
// writes a batch of first follows: visitor hashes (INSERT OR IGNORE … RETURNING), hourly and daily
// upserts, the stored names' SELECT, values and value spans upserts (one row per dimension), the
// use counts, COMMIT. Prints microseconds per short, by statement and per batch. Nothing is asserted.
//
// Environment: SW_SHORTS (300000), SW_BATCH (4000), SW_DIMENSIONS (6: rows per short in stats_values
//   and stats_value_spans; 1 estimates a schema with one row per short and day), SW_WITHOUT_ROWID=1
//   (the statistics tables WITHOUT ROWID), SW_PAGE_SIZE (SQLite's default 4096),
//   SW_AUTOCHECKPOINT (pages; SQLite's default 1000), SW_SPANS=0 (no value spans' upsert: estimates
//   spans rolled up from the values in the background instead of written per batch), SW_HOURLY=0 (no
//   hourly row: a lower bound for a daily row that carries its hours, which would be wider).
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');

const SHORTS = Number(process.env.SW_SHORTS ?? 300_000);
const BATCH = Number(process.env.SW_BATCH ?? 4_000);
const DIMENSIONS = Number(process.env.SW_DIMENSIONS ?? 6);
const WITHOUT_ROWID = process.env.SW_WITHOUT_ROWID === '1' ? ' WITHOUT ROWID' : '';
const ROWS = 500; // rows per multi-row statement, as StatsWriter's ROWS_PER_STATEMENT
const SPANS = process.env.SW_SPANS !== '0';
const HOURLY = process.env.SW_HOURLY !== '0';

const dir = mkdtempSync(join(tmpdir(), 'stats-write-cost-'));
const file = join(dir, 'stats.db');
const db = new Database(file);
if (process.env.SW_PAGE_SIZE) db.pragma(`page_size = ${Number(process.env.SW_PAGE_SIZE)}`);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('cache_size = -2048');
db.pragma('foreign_keys = ON');

const fk = (t) =>
  `CONSTRAINT "FK_${t}_short" FOREIGN KEY ("short_id") REFERENCES "shorts" ("id") ON DELETE CASCADE`;
db.exec(`
CREATE TABLE shorts (id varchar(36) PRIMARY KEY NOT NULL, code varchar(64) NOT NULL, url varchar(2048) NOT NULL, uses int NOT NULL DEFAULT 0, domain varchar(253) NOT NULL DEFAULT '');
CREATE UNIQUE INDEX UQ_shorts_domain_code ON shorts (domain, code);
CREATE TABLE stats_hourly (short_id varchar(36) NOT NULL, hour_no integer NOT NULL, visits integer NOT NULL DEFAULT 0, visitors integer NOT NULL DEFAULT 0, bots integer NOT NULL DEFAULT 0, ${fk('stats_hourly')}, PRIMARY KEY (short_id, hour_no))${WITHOUT_ROWID};
CREATE INDEX IDX_stats_hourly_hour ON stats_hourly (hour_no);
CREATE TABLE stats_daily (short_id varchar(36) NOT NULL, day_no integer NOT NULL, visits integer NOT NULL DEFAULT 0, visitors integer NOT NULL DEFAULT 0, bots integer NOT NULL DEFAULT 0, ${fk('stats_daily')}, PRIMARY KEY (short_id, day_no))${WITHOUT_ROWID};
CREATE INDEX IDX_stats_daily_day ON stats_daily (day_no);
CREATE TABLE stats_values (short_id varchar(36) NOT NULL, day_no integer NOT NULL, dim varchar(16) NOT NULL, name varchar(255) NOT NULL, hits integer NOT NULL DEFAULT 0, ${fk('stats_values')}, PRIMARY KEY (short_id, day_no, dim, name))${WITHOUT_ROWID};
CREATE INDEX IDX_stats_values_day ON stats_values (day_no);
CREATE TABLE stats_value_spans (short_id varchar(36) NOT NULL, span_no integer NOT NULL, dim varchar(16) NOT NULL, name varchar(255) NOT NULL, hits integer NOT NULL DEFAULT 0, ${fk('stats_value_spans')}, PRIMARY KEY (short_id, span_no, dim, name))${WITHOUT_ROWID};
CREATE INDEX IDX_stats_value_spans_span ON stats_value_spans (span_no);
CREATE TABLE stats_visitors (short_id varchar(36) NOT NULL, day_no integer NOT NULL, hash varchar(43) NOT NULL, ${fk('stats_visitors')}, PRIMARY KEY (short_id, day_no, hash))${WITHOUT_ROWID};
CREATE INDEX IDX_stats_visitors_day ON stats_visitors (day_no);
`);

const ids = [];
const insertShort = db.prepare('INSERT INTO shorts (id, code, url) VALUES (?, ?, ?)');
db.transaction(() => {
  for (let i = 0; i < SHORTS; i++) {
    const id = randomUUID();
    ids.push(id);
    insertShort.run(id, `c${i}`, `https://example.com/${i}`);
  }
})();

const prepared = new Map();
const prepare = (text) => {
  let st = prepared.get(text);
  if (!st) prepared.set(text, (st = db.prepare(text)));
  return st;
};
const marks = (n) => Array.from({ length: n }, () => '?').join(', ');
const tuples = (columns, rows) =>
  Array.from({ length: rows }, () => `(${marks(columns)})`).join(', ');
function upsert(table, columns, conflict, adds, rows) {
  for (let i = 0; i < rows.length; i += ROWS) {
    const chunk = rows.slice(i, i + ROWS);
    prepare(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples(columns.length, chunk.length)} ON CONFLICT (${conflict.join(', ')}) DO UPDATE SET ${adds.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ')}`,
    ).run(chunk.flat());
  }
}
const DIMS = ['country', 'referrer', 'browser', 'os', 'device', 'language', 'target'].slice(
  0,
  DIMENSIONS,
);

const parts = new Map();
let mark = 0n;
const lap = (name) => {
  const now = process.hrtime.bigint();
  if (name) parts.set(name, (parts.get(name) ?? 0) + Number(now - mark) / 1e3);
  mark = now;
};

/** One batch of first follows of `shorts` on `day`, as StatsWriter writes it. */
function batch(shorts, day) {
  const hour = day * 24 + 10;
  db.transaction(() => {
    lap();
    for (let i = 0; i < shorts.length; i += ROWS) {
      const chunk = shorts.slice(i, i + ROWS);
      prepare(
        `INSERT OR IGNORE INTO stats_visitors (short_id, day_no, hash) VALUES ${tuples(3, chunk.length)} RETURNING short_id, day_no, hash`,
      ).all(chunk.flatMap((s) => [s, day, randomBytes(32).toString('base64url')]));
    }
    lap('visitors');
    const counts = ['visits', 'visitors', 'bots'];
    if (HOURLY) {
      upsert(
        'stats_hourly',
        ['short_id', 'hour_no', ...counts],
        ['short_id', 'hour_no'],
        counts,
        shorts.map((s) => [s, hour, 1, 1, 0]),
      );
      lap('hourly');
    }
    upsert(
      'stats_daily',
      ['short_id', 'day_no', ...counts],
      ['short_id', 'day_no'],
      counts,
      shorts.map((s) => [s, day, 1, 1, 0]),
    );
    lap('daily');
    for (let i = 0; i < shorts.length; i += ROWS) {
      const chunk = shorts.slice(i, i + ROWS);
      prepare(
        `SELECT short_id, day_no, dim, name FROM stats_values WHERE short_id IN (${marks(chunk.length)}) AND day_no IN (?)`,
      ).all([...chunk, day]);
    }
    lap('names');
    const values = shorts.flatMap((s) => DIMS.map((dim) => [s, day, dim, `${dim}-value`, 1]));
    upsert(
      'stats_values',
      ['short_id', 'day_no', 'dim', 'name', 'hits'],
      ['short_id', 'day_no', 'dim', 'name'],
      ['hits'],
      values,
    );
    lap('values');
    if (SPANS) {
      upsert(
        'stats_value_spans',
        ['short_id', 'span_no', 'dim', 'name', 'hits'],
        ['short_id', 'span_no', 'dim', 'name'],
        ['hits'],
        values.map(([s, d, dim, name, n]) => [s, Math.floor(d / 16), dim, name, n]),
      );
      lap('spans');
    }
    const uses = prepare('UPDATE shorts SET uses = uses + ? WHERE id = ?');
    for (const s of shorts) uses.run(1, s);
    lap('uses');
  })();
  lap('commit');
}

for (let d = 0; d < 20; d++) {
  const from = (d * 5_000) % SHORTS;
  batch(ids.slice(from, from + 5_000), 20_000 + d);
}
db.pragma('wal_checkpoint(TRUNCATE)');
if (process.env.SW_AUTOCHECKPOINT)
  db.pragma(`wal_autocheckpoint = ${Number(process.env.SW_AUTOCHECKPOINT)}`);
parts.clear();
const perShort = [];
let written = 0;
for (let r = 0; r < 8; r++) {
  const shorts = [
    ...new Set(Array.from({ length: BATCH }, () => ids[Math.floor(Math.random() * SHORTS)])),
  ];
  const t = process.hrtime.bigint();
  batch(shorts, 20_030);
  perShort.push(Number(process.hrtime.bigint() - t) / 1e3 / shorts.length);
  written += shorts.length;
}
console.log(
  `${SHORTS} shorts, batches of ${BATCH}, ${DIMENSIONS} value rows per short${WITHOUT_ROWID}${SPANS ? '' : ', no spans'}${HOURLY ? '' : ', no hourly rows'}; µs per short by statement: ${[...parts].map(([k, v]) => `${k} ${(v / written).toFixed(0)}`).join(', ')}`,
);
console.log(
  `µs per short, per batch: ${perShort.map((x) => x.toFixed(0)).join(' ')}; file ${(statSync(file).size / 1e6).toFixed(0)} MB`,
);
db.close();
rmSync(dir, { recursive: true, force: true });
