#!/usr/bin/env node
// App CPU per statistics request: `node bench/statistics-read.mjs` (after `npm run build`).
//
// Starts one app per build and engine (each with its own database holding the short of bench/run.mjs:
// a year of hourly rows, daily rows, daily values and their 16-day spans), then in alternating rounds
// sends SR_REQUESTS requests at SR_CONNECTIONS connections of each scenario (a year by day, 30 days by
// hour, 1 hour by hour, all Europe/Berlin) to each app and reads the app's CPU time (utime + stime of /proc/<pid>/stat) before
// and after: milliseconds of app CPU per request, robust on a shared machine (req/s and latency are
// printed too, but move with the machine's load). The answers of the builds are compared byte for
// byte (the same data, the same query).
//
// Environment: SR_BUILDS (a comma list name=path of a dist directory, default `new=dist`; e.g.
//   `base=/tmp/base/dist,new=dist` where /tmp/base holds a copy of an older dist and package.json
//   beside it and node_modules linked), SR_ENGINES (sqlite,mariadb,postgres), SR_REQUESTS (300),
//   SR_ROUNDS (3), SR_CONNECTIONS (5), BENCH_DB_URL, BENCH_PG_URL as in bench/run.mjs, SR_CPU_PROF=dir:
//   run the apps with --cpu-prof and write their profiles into dir/<build>-<engine>/, one per thread
//   (bench/profile-summary.mjs), SR_NODE_FLAGS: node flags for the apps instead of those of
//   package.json's start script (as BENCH_NODE_FLAGS of bench/run.mjs; the start script's environment
//   is set too), SR_LOGS=dir: the apps' stdout (e.g. with --trace-gc) in dir/<build>-<engine>.log.
// Per round also the app's event-loop delay (p99 from the change of its Prometheus histogram over the
// round, interpolated within a bucket, as bench/run.mjs reads it). SR_THREADS=1: the CPU per request
// split by the app's threads (by name, from /proc/<pid>/task: bench/threads.mjs). SR_ONLY: a regular
// expression of the scenarios to run (a year by day, 30 days by hour, 1 hour by hour: the route's
// floor, its request path with one bucket to read).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loopDelayReader } from './loop-delay.mjs';
import { seedStatistics } from './seed-statistics.mjs';
import { threadsMs, threadsPer } from './threads.mjs';
import { performance } from 'node:perf_hooks';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BUILDS = (process.env.SR_BUILDS ?? 'new=dist').split(',').map((b) => {
  const [name, path] = b.split('=');
  return { name, dist: resolve(ROOT, path) };
});
const ENGINES = (process.env.SR_ENGINES ?? 'sqlite,mariadb,postgres').split(',');
const REQUESTS = Number(process.env.SR_REQUESTS ?? 300);
const ROUNDS = Number(process.env.SR_ROUNDS ?? 3);
/** SR_THREADS=1: also the app's CPU per request by thread name (main, workers, libuv, V8's). */
const THREADS = process.env.SR_THREADS === '1';
/** SR_ONLY: a regular expression; only the scenarios whose names match it. */
const ONLY = process.env.SR_ONLY ? new RegExp(process.env.SR_ONLY) : undefined;
const DB_URL = process.env.BENCH_DB_URL ?? 'mysql://root@127.0.0.1:3306';
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CPU_PROF = process.env.SR_CPU_PROF ? resolve(process.env.SR_CPU_PROF) : undefined;
const LOGS = process.env.SR_LOGS ? resolve(process.env.SR_LOGS) : undefined;
/** The start command's flags and environment (`MALLOC_ARENA_MAX=2 node --max-semi-space-size=4 …`). */
const START = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start.split(
  /\s+/,
);
const NODE_FLAGS =
  process.env.SR_NODE_FLAGS !== undefined
    ? process.env.SR_NODE_FLAGS.split(/\s+/).filter(Boolean)
    : START.filter((t) => t.startsWith('--'));
const START_ENV = Object.fromEntries(
  START.slice(0, Math.max(0, START.indexOf('node')))
    .filter((t) => /^\w+=/.test(t))
    .map((t) => [t.slice(0, t.indexOf('=')), t.slice(t.indexOf('=') + 1)]),
);
const CONNECTIONS = Number(process.env.SR_CONNECTIONS ?? 5);
const METRICS_TOKEN = randomBytes(16).toString('hex');
/** The app's event-loop delay p99 since the last call, in ms. */
const readLoopDelay = loopDelayReader(METRICS_TOKEN);
const loopDelay = async (base) => (await readLoopDelay(base)).p99;
const DAY = 86_400_000;
const TICKS = 100;

if (LOGS) mkdirSync(LOGS, { recursive: true });
const tmp = mkdtempSync(join(tmpdir(), 'statistics-read-'));
const cleanups = [];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.on('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / TICKS;
}

/** A database for one app: its env and a bulk insert. */
async function database(engine, tag) {
  const name = `sr_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  if (engine === 'mariadb') {
    const my = (await import('mysql2/promise')).default;
    const u = new URL(DB_URL);
    const admin = await my.createConnection({
      host: u.hostname,
      port: Number(u.port || 3306),
      user: decodeURIComponent(u.username || 'root'),
      password: decodeURIComponent(u.password),
    });
    await admin.query(
      `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
    cleanups.push(async () => {
      await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await admin.end();
    });
    u.pathname = `/${name}`;
    return {
      env: { DB_URL: u.toString() },
      bulk: async (table, columns, rows) => {
        for (let i = 0; i < rows.length; i += 2000)
          await admin.query(`INSERT INTO \`${name}\`.${table} (${columns.join(', ')}) VALUES ?`, [
            rows.slice(i, i + 2000),
          ]);
      },
    };
  }
  if (engine === 'postgres') {
    const { Client } = (await import('pg')).default;
    const admin = new Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const u = new URL(PG_URL);
    u.pathname = `/${name}`;
    const db = new Client({ connectionString: u.toString() });
    await db.connect();
    cleanups.push(async () => {
      await db.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    });
    return {
      env: { DB_URL: u.toString() },
      bulk: async (table, columns, rows) => {
        const per = Math.floor(60_000 / columns.length);
        for (let i = 0; i < rows.length; i += per) {
          const chunk = rows.slice(i, i + per);
          const marks = chunk
            .map(
              (_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`,
            )
            .join(', ');
          await db.query(
            `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${marks}`,
            chunk.flat(),
          );
        }
      },
    };
  }
  const file = join(tmp, `${tag}.db`);
  return {
    env: { DB_FILE: file },
    bulk: async (table, columns, rows) => {
      const Database = (await import('better-sqlite3')).default;
      const db = new Database(file, { timeout: 5000 });
      const insert = db.prepare(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      );
      db.transaction(() => {
        for (const r of rows) insert.run(...r);
      })();
      db.close();
    },
  };
}

async function startApp(build, engine, now) {
  const port = await freePort();
  const db = await database(engine, `${build.name}-${engine}`);
  const args = [...NODE_FLAGS, join(build.dist, 'src', 'main.js')];
  if (CPU_PROF)
    args.unshift(
      '--cpu-prof',
      // One file per thread (the main thread's, SQLite's reads' and writer's threads).
      `--cpu-prof-dir=${join(CPU_PROF, `${build.name}-${engine}`)}`,
      '--require',
      join(ROOT, 'bench', 'exit-on-sigusr2.cjs'),
    );
  const child = spawn(process.execPath, args, {
    cwd: dirname(build.dist),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...START_ENV,
      NODE_ENV: 'production',
      PORT: String(port),
      APP_SECRET: randomBytes(32).toString('hex'),
      METRICS_TOKEN,
      ...db.env,
    },
    stdio: [
      'ignore',
      LOGS ? openSync(join(LOGS, `${build.name}-${engine}.log`), 'w') : 'ignore',
      'inherit',
    ],
  });
  cleanups.push(async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(CPU_PROF ? 'SIGUSR2' : 'SIGTERM');
    await exited;
  });
  const base = `http://127.0.0.1:${port}`;
  for (let t = Date.now(); ;) {
    if (child.exitCode !== null) throw new Error(`${build.name} ${engine} exited`);
    try {
      const r = await fetch(`${base}/s/bench-probe`, { redirect: 'manual' });
      if (r.status === 302) break;
    } catch {
      // not up yet
    }
    if (Date.now() - t > 60_000) throw new Error(`${build.name} ${engine}: no answer`);
    await sleep(200);
  }
  return {
    build,
    engine,
    base,
    pid: child.pid,
    ...(await seedStatistics(db.bulk, 'https://example.com/', now)),
  };
}

/** n requests at CONNECTIONS connections: app CPU ms per request, latencies, one body. */
async function run(app, query, n) {
  const url = `${app.base}/api/code/${app.shortId}/statistics?${query}`;
  const headers = { authorization: `Bearer ${app.apiKey}` };
  const times = [];
  let body;
  let next = 0;
  await loopDelay(app.base); // resets the app's histogram
  const cpu0 = cpuMs(app.pid);
  const threads0 = THREADS ? threadsMs(app.pid, TICKS) : null;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next++ < n) {
        const t = performance.now();
        const r = await fetch(url, { headers });
        const text = await r.text();
        times.push(performance.now() - t);
        if (r.status !== 200) throw new Error(`${r.status} ${text.slice(0, 300)}`);
        body = text;
      }
    }),
  );
  const wall = performance.now() - t0;
  const cpu = (cpuMs(app.pid) - cpu0) / n;
  const threads = threads0 ? threadsPer(threads0, threadsMs(app.pid, TICKS), n) : null;
  const loop = await loopDelay(app.base);
  times.sort((a, b) => a - b);
  const at = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
  return { cpu, threads, rps: (n * 1000) / wall, p50: at(0.5), p99: at(0.99), loop, body };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  // A fixed now and from for every app: the same data, the same answers.
  const now = Math.floor(Date.now() / 60_000) * 60_000 - 60_000;
  const to = `&to=${new Date(now).toISOString()}`;
  const scenarios = [
    {
      name: 'year by day',
      query: `granularity=day&tz=Europe/Berlin&from=${new Date(now - 365 * DAY).toISOString()}${to}`,
    },
    {
      name: '30 days by hour',
      query: `granularity=hour&tz=Europe/Berlin&from=${new Date(now - 30 * DAY).toISOString()}${to}`,
    },
    {
      // The floor of the route: the same request path (key, ownership, validation, answer) with
      // one bucket to read.
      name: '1 hour by hour',
      query: `granularity=hour&tz=Europe/Berlin&from=${new Date(now - 3_600_000).toISOString()}${to}`,
    },
  ];
  if (ONLY) scenarios.splice(0, scenarios.length, ...scenarios.filter((s) => ONLY.test(s.name)));
  for (const engine of ENGINES) {
    const apps = [];
    for (const build of BUILDS) apps.push(await startApp(build, engine, now));
    const results = new Map();
    for (const s of scenarios) {
      const bodies = new Map();
      for (const app of apps) {
        const { body } = await run(app, s.query, Math.max(50, REQUESTS / 3)); // warm-up
        bodies.set(app.build.name, body);
      }
      const distinct = new Set(bodies.values());
      if (distinct.size > 1)
        console.log(`!! ${engine} ${s.name}: the answers differ between builds`);
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of scenarios) {
        const order = round % 2 ? [...apps].reverse() : apps;
        for (const app of order) {
          const r = await run(app, s.query, REQUESTS);
          const k = `${s.name}|${app.build.name}`;
          results.set(k, [...(results.get(k) ?? []), r]);
        }
      }
    }
    for (const s of scenarios)
      for (const app of apps) {
        const rs = results.get(`${s.name}|${app.build.name}`);
        console.log(
          `${engine.padEnd(8)} ${s.name.padEnd(15)} ${app.build.name.padEnd(6)} ` +
            `CPU/request median ${median(rs.map((r) => r.cpu)).toFixed(2)} ms, ` +
            `min ${Math.min(...rs.map((r) => r.cpu)).toFixed(2)} ms ` +
            `(${rs.map((r) => r.cpu.toFixed(2)).join(' ')}), ` +
            `${median(rs.map((r) => r.rps)).toFixed(0)} req/s, ` +
            `p50 ${median(rs.map((r) => r.p50)).toFixed(1)} ms, p99 ${median(rs.map((r) => r.p99)).toFixed(1)} ms ` +
            `(${rs.map((r) => r.p99.toFixed(0)).join(' ')}), ` +
            `loop p99 ${median(rs.map((r) => r.loop)).toFixed(1)} ms (${rs.map((r) => r.loop.toFixed(1)).join(' ')})`,
        );
        if (THREADS) {
          const names = [...new Set(rs.flatMap((r) => [...r.threads.keys()]))].sort();
          const per = names.map((name) => {
            const of = (key) => median(rs.map((r) => r.threads.get(name)?.[key] ?? 0)).toFixed(2);
            return `${name} ${of('cpu')} (system ${of('sys')})`;
          });
          console.log(`${' '.repeat(31)}CPU ms/request by thread (medians): ${per.join(', ')}`);
        }
      }
    while (cleanups.length) await cleanups.pop()();
  }
} finally {
  while (cleanups.length)
    await cleanups
      .pop()()
      .catch(() => {});
  rmSync(tmp, { recursive: true, force: true });
}
