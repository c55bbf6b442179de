#!/usr/bin/env node
// What the statistics writer's batches of first follows cost on PostgreSQL (or MariaDB), statement by
// statement, with the app's own StatsWriter and migrations: `npm run build`, then
// `node bench/statistics-write-pg.mjs`.
//
// A fresh database (the migrations of dist/), SW_SHORTS shorts seeded as bench/run.mjs seeds them
// (and analyzed, as it does), then SW_BATCHES batches of first follows of random shorts as a browser's
// follow makes them (seven keys a short: hourly visits, uses, target, referrer, country, the agent's
// traits, the visitor), 2,000 keys a batch (the recorder's batch size), written one after the other
// as the recorder's flush writes a backlog. Prints the time per batch and per statement kind
// (wall time on this process, the database's work included). Nothing is asserted.
//
// Environment: SW_URL (postgres://postgres@127.0.0.1:5432/postgres; a mysql:// URL for MariaDB),
//   SW_SHORTS (100000), SW_BATCHES (20), SW_KEYS (2000, keys per batch).
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { DataSource } = require('typeorm');
const { MIGRATIONS } = require(join(ROOT, 'dist/src/database/migrations/index.js'));
const { StatsWriter, keys } = require(join(ROOT, 'dist/src/statistics/stats-writer.js'));
const { addUseCounts } = require(join(ROOT, 'dist/src/shorts/use-counts.js'));
const { engineOf } = require(join(ROOT, 'dist/src/database/dialect.js'));
const { hourOf, dayOfHour, SEP } = require(join(ROOT, 'dist/src/statistics/traits.js'));

const URL_ = process.env.SW_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SHORTS = Number(process.env.SW_SHORTS ?? 100_000);
const BATCHES = Number(process.env.SW_BATCHES ?? 20);
const KEYS = Number(process.env.SW_KEYS ?? 2_000);
const pg = URL_.startsWith('postgres');

const database = `swpg_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const adminOptions = (db) => {
  const u = new URL(URL_);
  return pg
    ? { type: 'postgres', url: `${u.protocol}//${u.username}@${u.host}/${db}` }
    : { type: 'mysql', url: `${u.protocol}//${u.username}@${u.host}/${db}`, timezone: 'Z' };
};
const admin = await new DataSource(adminOptions(pg ? 'postgres' : '')).initialize();
await admin.query(
  pg
    ? `CREATE DATABASE ${database}`
    : `CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
);
const ds = await new DataSource({
  ...adminOptions(database),
  migrations: MIGRATIONS,
  migrationsRun: true,
  migrationsTransactionMode: 'each',
  extra: pg ? { max: 20 } : { connectionLimit: 20 },
}).initialize();

try {
  const seedIdOf = (i) => `5eed0000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
  const created = new Date().toISOString().slice(0, 23).replace('T', ' ');
  const t0 = performance.now();
  for (let i = 0; i < SHORTS; i += 50_000) {
    const ids = [];
    const codes = [];
    for (let j = i; j < Math.min(SHORTS, i + 50_000); j++) {
      ids.push(seedIdOf(j));
      codes.push(`m${j.toString(36)}`);
    }
    if (pg) {
      await ds.query(
        `INSERT INTO shorts (id, code, url, uses, created_at, dangerous) SELECT id, code, 'https://example.com/', 0, $3::timestamp, 0 FROM unnest($1::varchar[], $2::varchar[]) AS t(id, code)`,
        [ids, codes, created],
      );
    } else {
      for (let k = 0; k < ids.length; k += 2_000) {
        const part = ids.slice(k, k + 2_000);
        await ds.query(
          `INSERT INTO shorts (id, code, url, uses, created_at, dangerous) VALUES ${part.map(() => `(?, ?, 'https://example.com/', 0, ?, 0)`).join(', ')}`,
          part.flatMap((id, n) => [id, codes[k + n], created]),
        );
      }
    }
  }
  await ds.query(pg ? 'VACUUM ANALYZE shorts' : 'ANALYZE TABLE shorts');
  console.log(`${SHORTS} shorts seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // Every statement a batch runs, timed, by kind.
  const byKind = new Map();
  const kindOf = (sql) => {
    const s = sql.replace(/\s+/g, ' ');
    const table = /(?:INTO|FROM|UPDATE) "?(\w+)"?/i.exec(s)?.[1] ?? '?';
    return `${s.split(' ')[0].toUpperCase()} ${table}`;
  };
  const timed = (runner) => {
    const query = runner.query.bind(runner);
    runner.query = async (sql, params, structured) => {
      const t = performance.now();
      try {
        return await query(sql, params, structured);
      } finally {
        const k = kindOf(sql);
        const e = byKind.get(k) ?? { n: 0, ms: 0, params: 0 };
        e.n++;
        e.ms += performance.now() - t;
        e.params += params?.length ?? 0;
        byKind.set(k, e);
      }
    };
    for (const m of ['startTransaction', 'commitTransaction']) {
      const fn = runner[m].bind(runner);
      runner[m] = async () => {
        const t = performance.now();
        try {
          return await fn();
        } finally {
          const e = byKind.get(m) ?? { n: 0, ms: 0, params: 0 };
          e.n++;
          e.ms += performance.now() - t;
          byKind.set(m, e);
        }
      };
    }
    return runner;
  };
  const source = new Proxy(ds, {
    get(target, p) {
      if (p === 'createQueryRunner') return () => timed(target.createQueryRunner());
      const v = Reflect.get(target, p);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  const engine = engineOf(ds);
  const writer = new StatsWriter(
    source,
    async (ids) => new Set(ids),
    (runner, counts) => addUseCounts(runner, engine, counts),
  );

  const hour = hourOf(Date.now());
  const day = dayOfHour(hour);
  const agents = [
    ['Chrome', 'Windows', 'desktop'],
    ['Firefox', 'Linux', 'desktop'],
    ['Safari', 'iOS', 'mobile'],
  ].map((parts) => parts.join(SEP));
  const batchMs = [];
  const cpu0 = process.cpuUsage();
  let shortsWritten = 0;
  for (let b = 0; b < BATCHES; b++) {
    const counts = new Map();
    while (counts.size + 7 <= KEYS) {
      const short = seedIdOf(Math.floor(Math.random() * SHORTS));
      const add = (k) => counts.set(k, (counts.get(k) ?? 0) + 1);
      add(keys.hourly(short, hour, 'visits'));
      add(keys.uses(short));
      add(keys.value(short, day, 'target', 'https://example.com/'));
      add(keys.value(short, day, 'referrer', 'direct'));
      add(keys.value(short, day, 'country', 'DE'));
      add(keys.agent(short, day, agents[shortsWritten % 3]));
      add(keys.visitor(short, hour, randomBytes(16).toString('base64url')));
      shortsWritten++;
    }
    const t = performance.now();
    await writer.write(randomUUID(), counts);
    batchMs.push(performance.now() - t);
  }
  const cpu = process.cpuUsage(cpu0);
  const total = batchMs.reduce((a, b) => a + b, 0);
  const sorted = [...batchMs].sort((a, b) => a - b);
  console.log(
    `${BATCHES} batches of ${KEYS} keys (${shortsWritten} shorts): ${total.toFixed(0)} ms, ` +
      `${((total * 1000) / shortsWritten).toFixed(0)} µs a short; batch min ${sorted[0].toFixed(0)}, ` +
      `median ${sorted[sorted.length >> 1].toFixed(0)}, max ${sorted.at(-1).toFixed(0)} ms; ` +
      `this process's CPU ${((cpu.user + cpu.system) / shortsWritten).toFixed(0)} µs a short`,
  );
  console.log('statement                      count  ms total  ms each  µs a short  params each');
  for (const [k, e] of [...byKind].sort((a, b) => b[1].ms - a[1].ms)) {
    console.log(
      `${k.padEnd(30)} ${String(e.n).padStart(5)} ${e.ms.toFixed(0).padStart(9)} ${(e.ms / e.n).toFixed(1).padStart(8)} ${((e.ms * 1000) / shortsWritten).toFixed(0).padStart(11)} ${String(Math.round(e.params / e.n)).padStart(12)}`,
    );
  }
} finally {
  await ds.destroy();
  await admin.query(
    pg ? `DROP DATABASE IF EXISTS ${database} WITH (FORCE)` : `DROP DATABASE \`${database}\``,
  );
  await admin.destroy();
}
