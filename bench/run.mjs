#!/usr/bin/env node
// Load benchmark of the redirect path: `npm run bench`.
//
// Builds nothing: it runs the BUILT app (dist/src/main.js) - run `npm run build` first.
// Targets, each in its own process on 127.0.0.1 (loopback only):
//   app-sqlite   node dist/src/main.js on a temp SQLite file
//   app-mariadb  the same on a fresh MariaDB database (only when BENCH_DB_URL / 127.0.0.1:3306 answers)
//   app-postgres the same on a fresh PostgreSQL database (only when BENCH_PG_URL answers)
//   bare         a bare node:http server answering the same 302 from an in-memory Map (the baseline)
//   floor-{engine} per app, once its database is seeded: a bare node:http server doing the same
//                indexed point read of the short by code with the app's driver (better-sqlite3, mysql2,
//                pg) on the app's own database (bench/floor-server.mjs): the floor of a cache miss.
//                Only the cache-miss follows run against it, each floor round right after the app's
//                (the `vs floor` and `CPU vs floor` columns, and the cache-miss goals)
// Scenarios (follows as browsers: statistics are recorded, user agents and referrers rotating):
// follow of a plain short (GET /s/{code}), follow of a short with 10 redirect rules that no visitor
// matches (all evaluated), follow of a short with maxUses = 10^9 (each follow claims
// a use with a conditional UPDATE), follow on a shared own domain (GET /{code} with its Host), follow by a bot (Twitterbot: counted apart), follow of random
// codes among BENCH_MANY (1,000,000) shorts (mostly cache misses: one SELECT each; as browsers, and
// as a bot, whose follow records no values: the lookup's own cost beside the statistics'), anonymous create
// (POST /api/code), and the statistics call of a short with a year of hourly data
// (GET /api/code/{id}/statistics, 5 connections; a separate app with the development login).
// Per scenario: the app's event-loop delay (p99 and the slowest bucket, from the change of its
// Prometheus histogram over the round).
// After the run: each app's resident memory (RSS from /proc/<pid>/status), then one line per goal
// of the performance work (figure, goal, whether it holds).
// autocannon drives them from this process: warm-up first, then alternating rounds (every scenario
// once per round), so slow drifts of the shared machine hit all targets alike; after each round it
// waits (at most 5 s) until the machine is quiet, so one target's background work (a database
// writing back a create burst) does not land in the next one's round; after the cache-miss round
// until its statistics backlog is written (at most 60 s), which that round's CPU figure includes.
// The targets are started and seeded side by side. Progress lines carry the
// seconds since start. Prints req/s, p50, p99, the ratio to the bare server's follow, for the cache
// misses the ratio to their floor, and the CPU time each target spent per request with its ratio to
// the bare server's and the floor's (robust where req/s moves with a shared machine). Stops by
// itself; every process and temp file is removed.
//
// Environment: BENCH_CONNECTIONS (50), BENCH_DURATION seconds per round (3, which with the warm-up's
//   0.5 s keeps the full bench within 12 minutes on 2 cores; the cache-miss rounds 2 at most),
//   BENCH_MISS_SECONDS (2: the cache-miss rounds, at most BENCH_DURATION), BENCH_ROUNDS (3),
//   BENCH_WARMUP seconds per scenario (0.5: tens of thousands of follows, hundreds of statistics
//   reads, which the JIT needs; the rounds after it are the measure), BENCH_DB_URL (mysql://root@127.0.0.1:3306; "off" skips MariaDB),
//   BENCH_PG_URL (postgres://postgres@127.0.0.1:5432/postgres; "off" skips PostgreSQL),
//   BENCH_MANY (1000000): shorts seeded for the cache-miss follow (0 skips that scenario),
//   BENCH_TAGGED (100000): shorts of one user with 10 tags each, for the tag filter, a link page and the bulk
//   edits beside a follow (0 skips those scenarios),
//   BENCH_ONLY=regex: only the runs whose "target / scenario" matches (the bare baseline always runs;
//   a floor run is selected by its app's name too: 'follow 1 of' runs the cache misses and their floors),
//   BENCH_FLOOR=off: no floor servers for the cache misses,
//   BENCH_CPU_PROF=dir: run the app with --cpu-prof, profiles in dir/app-{engine}/ (thread 0: the main thread; see bench/profile-summary.mjs),
//   BENCH_INSTANCES=off: skip the instances comparison (below; BENCH_ONLY=instances runs only it and the baseline),
//   BENCH_INSTANCE_RATE: follows per second per instance in that comparison (3000),
//   BENCH_INSTANCE_ROUNDS: rounds of that comparison (6, or BENCH_ROUNDS when more),
//   BENCH_APP_ENV="NAME=value ...": more environment variables for the apps (to compare settings),
//   BENCH_NODE_FLAGS: node flags for the app instead of those of package.json's start script ("" for none),
//   BENCH_LOGS=dir: keep the apps' logs (their stdout and stderr, e.g. with BENCH_NODE_FLAGS="--trace-gc") in dir,
//   BENCH_HOLD seconds: keep the apps running that long after the memory lines (their pids are logged), to inspect them,
//   BENCH_THREADS=1: log each round's app CPU per request during the load by thread (main, workers, V8's, libuv's),
//   BENCH_PIN=off: no taskset pinning in that comparison (apps on the last core, load and HAProxy on the rest).
//
// Instances: one app instance behind HAProxy vs two behind the same HAProxy (round robin, keep-alive
// to the backends), one database (MariaDB when it answers, else one shared SQLite file). The figure
// is the server CPU time (utime + stime from /proc/<pid>/stat) per 1,000 follows served, per
// instance, with every instance getting the same rate (BENCH_INSTANCE_RATE follows/s: 1 instance
// at R, 2 instances at 2R in total); the goal is the same figure for both (within 15 %): an
// instance does not get more expensive per follow when there are two. Raw req/s cannot double
// here (2 cores shared with the load generator and the balancer), and at saturation the figure
// would measure the machine (less batching per event-loop turn when 4 busy processes share 2
// cores), not the app.
import autocannon from 'autocannon';
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loopDelayReader } from './loop-delay.mjs';
import { seedStatistics } from './seed-statistics.mjs';
import { threadsMs, threadsPer } from './threads.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MAIN = join(ROOT, 'dist', 'src', 'main.js');
/**
 * The node flags of the app's start command (`npm start`: package.json's `start` script, the same
 * as the Docker image's CMD), so the bench runs the app as it is run; BENCH_NODE_FLAGS (a space list,
 * "" for none) replaces them to compare.
 */
const START = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start.split(
  /\s+/,
);
const NODE_FLAGS =
  process.env.BENCH_NODE_FLAGS !== undefined
    ? process.env.BENCH_NODE_FLAGS.split(/\s+/).filter(Boolean)
    : START.filter((t) => t.startsWith('--'));
/** The start command's environment (`MALLOC_ARENA_MAX=2 node …`); BENCH_APP_ENV overrides it. */
const START_ENV = Object.fromEntries(
  START.slice(
    0,
    Math.max(
      0,
      START.findIndex((t) => !/^\w+=/.test(t)),
    ),
  ).map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]),
);
/** BENCH_APP_ENV ("NAME=value NAME2=value"): more environment for the apps, to compare settings. */
const APP_ENV = Object.fromEntries(
  (process.env.BENCH_APP_ENV ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]),
);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_DURATION ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 0.5);
const DB_URL = process.env.BENCH_DB_URL ?? 'mysql://root@127.0.0.1:3306';
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CPU_PROF = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined;
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : undefined;
const TARGET_URL = 'https://example.com/benchmark/target?x=1';
const MANY = Number(process.env.BENCH_MANY ?? 1_000_000);
/** BENCH_FLOOR=off: no floor servers (bench/floor-server.mjs) for the cache misses. */
const FLOOR = process.env.BENCH_FLOOR !== 'off';
/** BENCH_HOLD seconds: the apps are kept running that long after the memory lines, to inspect them. */
const HOLD = Number(process.env.BENCH_HOLD ?? 0);
/** BENCH_THREADS=1: each round's app CPU during the load also by thread (bench/threads.mjs). */
const THREADS = process.env.BENCH_THREADS === '1';

// Real browsers' user agents and some referrers: the follows rotate through them (statistics on).
const BROWSER_UAS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.6; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
];
const REFERRERS = [
  undefined,
  'https://www.google.com/search?q=x',
  'https://news.ycombinator.com/item?id=1',
  'https://t.co/abc',
  'https://www.reddit.com/r/selfhosted/',
];
/** Rotating browser requests for a path (autocannon cycles through them). */
function asBrowsers(path) {
  return BROWSER_UAS.flatMap((ua) =>
    REFERRERS.map((referer) => ({
      method: 'GET',
      path,
      headers: { 'user-agent': ua, ...(referer ? { referer } : {}) },
    })),
  );
}
/** The first ten pages of a list as one API key's client pages through them (autocannon cycles). */
function pagesOf(path, key) {
  return Array.from({ length: 10 }, (_, page) => ({
    method: 'GET',
    path: `${path}&page=${page}`,
    headers: { authorization: `Bearer ${key}` },
  }));
}
const BOT_UA = 'Twitterbot/1.0';
const OWN_DOMAIN = 'go.bench.example';
// Fixed-width codes and ids that grow with i: the seed appends to the indexes instead of inserting at
// random places (InnoDB with a 128 MiB buffer pool took 258 s for a million random UUID keys).
const CODE_WIDTH = Math.max(1, Math.ceil(Math.log(Math.max(MANY, 2)) / Math.log(36)));
const codeOf = (i) => `m${i.toString(36).padStart(CODE_WIDTH, '0')}`;
const SEED_ID_PREFIX = randomBytes(4).toString('hex');
const seedIdOf = (i) => `${SEED_ID_PREFIX}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
/** Shorts of one user with 10 tags each for the tag filter (0 skips it and the bulk-edit scenario). */
const TAGGED = Number(process.env.BENCH_TAGGED ?? 100_000);
/** Distinct tags among them: each short carries 10, so each tag is on TAGGED / 10 shorts. */
const TAG_WORDS = 100;
const taggedIdOf = (i) => `${SEED_ID_PREFIX}-0000-4000-9000-${i.toString(16).padStart(12, '0')}`;
/** The 10 tags of tagged short i: tag words (7i + 13k) mod 100, k = 0..9 (distinct). */
const tagsOf = (i) => Array.from({ length: 10 }, (_, k) => `Tag${(i * 7 + k * 13) % TAG_WORDS}`);
const INSTANCES = process.env.BENCH_INSTANCES !== 'off';
const HAPROXY = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((p) => existsSync(p));
const METRICS_TOKEN = randomBytes(16).toString('hex');
/** The app's event-loop delay since the last call, in ms (p99, and the bound of the slowest bucket). */
const loopDelay = loopDelayReader(METRICS_TOKEN);
/** The instance figures may differ by this share and still meet the goal. */
const CPU_GOAL = 0.15;
/**
 * Instances comparison on 2+ cores: the apps on the last core, the load generator (this process) and
 * HAProxy on the others, so the apps of both setups share their core with nothing but each other
 * (BENCH_PIN=off leaves scheduling to the kernel).
 */
const PIN = process.env.BENCH_PIN !== 'off' && cpus().length >= 2;
const APP_CORE = String(cpus().length - 1);
const LOAD_CORES = cpus().length > 2 ? `0-${cpus().length - 2}` : '0';
/** Follows per second each instance gets in the instances comparison (the same in both setups). */
const INSTANCE_RATE = Number(process.env.BENCH_INSTANCE_RATE ?? 3000);
/** Rounds of the instances comparison: more than the scenarios' (its figure is a ratio of two noisy ones). */
const INSTANCE_ROUNDS = Number(process.env.BENCH_INSTANCE_ROUNDS ?? Math.max(ROUNDS, 6));

const tmp = mkdtempSync(join(tmpdir(), 'url-shorter-bench-'));
const children = new Set();
const cleanups = [];

const started = Date.now();

/** A progress line, with the seconds since the bench started (each step's time). */
function log(msg) {
  const s = ((Date.now() - started) / 1000).toFixed(0).padStart(4);
  process.stderr.write(`[bench ${s} s] ${msg}\n`);
}

/** The machine's busy and total CPU ticks so far (/proc/stat, all cores). */
function machineTicks() {
  const f = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const idle = f[3] + (f[4] ?? 0); // idle + iowait
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/**
 * Waits (at most SETTLE_MAX_MS) until the machine is quiet: under SETTLE_BUSY of its CPU busy over
 * SETTLE_WINDOW_MS. A target's background work after a heavy scenario (a database writing back a
 * create burst, a statistics backlog) would otherwise land in the next target's round. Returns the
 * milliseconds waited.
 */
const SETTLE_BUSY = 0.15;
const SETTLE_WINDOW_MS = 300;
const SETTLE_MAX_MS = 5_000;
async function settle(maxMs = SETTLE_MAX_MS) {
  const t0 = Date.now();
  for (;;) {
    const a = machineTicks();
    await new Promise((r) => setTimeout(r, SETTLE_WINDOW_MS));
    const b = machineTicks();
    const busy = (b.busy - a.busy) / Math.max(1, b.total - a.total);
    if (busy < SETTLE_BUSY || Date.now() - t0 >= maxMs) return Date.now() - t0;
  }
}

async function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.unref();
    s.on('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitUntilUp(base, child, logFile, probeStatus = 302) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(
        `process exited with ${child.exitCode}:\n${readFileSync(logFile, 'utf8').slice(-2000)}`,
      );
    }
    try {
      const r = await fetch(`${base}/s/bench-probe`, {
        redirect: 'manual',
        signal: AbortSignal.timeout(2000),
      });
      if (r.status === probeStatus) return;
    } catch {
      // not up yet
    }
    await sleep(200);
  }
  throw new Error(`no answer from ${base} within 60 s`);
}

function spawnLogged(name, args, env) {
  const logFile = join(tmp, `${name}.log`);
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...START_ENV, ...APP_ENV, ...env },
    stdio: ['ignore', fd, fd],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return { child, logFile };
}

async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(CPU_PROF ? 'SIGUSR2' : 'SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(t);
}

// ---------------------------------------------------------------------------------------------
// MariaDB helpers (mysql2 from the project's dependencies)

async function mysql() {
  return (await import('mysql2/promise')).default;
}

function mysqlOptions(url, database) {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 3306),
    user: decodeURIComponent(u.username || 'root'),
    password: decodeURIComponent(u.password),
    database,
    connectTimeout: 3000,
  };
}

async function mariadbReachable() {
  if (DB_URL === 'off') return 'BENCH_DB_URL=off';
  try {
    const c = await (await mysql()).createConnection(mysqlOptions(DB_URL));
    await c.query('SELECT 1');
    await c.end();
    return null;
  } catch (e) {
    return `${DB_URL} not reachable (${e.code ?? e.message})`;
  }
}

// PostgreSQL helpers (pg from the project's dependencies)

async function pgClient(url) {
  const { Client } = (await import('pg')).default;
  const c = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await c.connect();
  return c;
}

async function postgresReachable() {
  if (PG_URL === 'off') return 'BENCH_PG_URL=off';
  try {
    const c = await pgClient(PG_URL);
    await c.query('SELECT 1');
    await c.end();
    return null;
  } catch (e) {
    return `${PG_URL} not reachable (${e.code ?? e.message})`;
  }
}

// ---------------------------------------------------------------------------------------------
// Targets

/**
 * Rounds of the cache-miss follows, in seconds (about 30,000 follows): the backlog of a 4 s round, and
 * the wait for it, took the full bench over 10 minutes. Longer ones (BENCH_MISS_SECONDS with
 * BENCH_DURATION) show the statistics' backlog at its bound.
 */
const MISS_SECONDS = Number(process.env.BENCH_MISS_SECONDS ?? 2);

/** A follow of a random code among the MANY seeded shorts (mostly cache misses), as `userAgent`. */
function randomFollow(suffix, userAgent) {
  return {
    name: `follow 1 of ${MANY >= 1e6 ? `${MANY / 1e6}M` : MANY}${suffix}`,
    method: 'GET',
    path: '/s/m0',
    headers: { 'user-agent': userAgent },
    setupRequest: (req) => ({ ...req, path: `/s/${codeOf(Math.floor(Math.random() * MANY))}` }),
    expect: 302,
    settleMaxMs: 60_000,
    seconds: MISS_SECONDS,
  };
}

async function startApp(kind) {
  const port = await freePort();
  const env = {
    NODE_ENV: 'production',
    PORT: String(port),
    APP_SECRET: randomBytes(32).toString('hex'),
    DB_FILE: join(tmp, `${kind}`, 'bench.db'),
    // The load generator is one address: the create scenario measures creating, not refusing.
    LIMIT_ANON_CREATE: 'off',
    LIMIT_USER_CREATE: 'off',
    LIMIT_QR_RENDER: 'off',
    LIMIT_BULK: 'off',
    // The bench reads the event-loop delay per scenario from the app's Prometheus endpoint.
    METRICS_TOKEN,
  };
  let setMaxUses;
  let bulk; // (sql, rows) inserting many rows
  /** The floor server's environment: the same database (bench/floor-server.mjs). */
  const floorEnv = { FLOOR_ENGINE: kind };
  let analyze; // (tables) refreshing the planner's statistics (the database servers)
  if (kind === 'mariadb') {
    const database = `bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    const my = await mysql();
    const admin = await my.createConnection(mysqlOptions(DB_URL));
    await admin.query(
      `CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
    cleanups.push(async () => {
      await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
      await admin.end();
    });
    const u = new URL(DB_URL);
    u.pathname = `/${database}`;
    env.DB_URL = u.toString();
    floorEnv.FLOOR_DB_URL = env.DB_URL;
    setMaxUses = async (code, n) => {
      await admin.query(`UPDATE \`${database}\`.shorts SET max_uses = ? WHERE code = ?`, [n, code]);
    };
    analyze = async (tables) => {
      await admin.query(`ANALYZE TABLE ${tables.map((t) => `\`${database}\`.${t}`).join(', ')}`);
    };
    bulk = async (table, columns, rows) => {
      for (let i = 0; i < rows.length; i += 2000) {
        await admin.query(`INSERT INTO \`${database}\`.${table} (${columns.join(', ')}) VALUES ?`, [
          rows.slice(i, i + 2000),
        ]);
      }
    };
  } else if (kind === 'postgres') {
    const database = `bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    const admin = await pgClient(PG_URL);
    await admin.query(`CREATE DATABASE ${database}`);
    const u = new URL(PG_URL);
    u.pathname = `/${database}`;
    env.DB_URL = u.toString();
    floorEnv.FLOOR_DB_URL = env.DB_URL;
    const db = await pgClient(env.DB_URL);
    cleanups.push(async () => {
      await db.end();
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    });
    setMaxUses = async (code, n) => {
      await db.query('UPDATE shorts SET max_uses = $1 WHERE code = $2', [n, code]);
    };
    analyze = async (tables) => {
      // VACUUM too: autovacuum vacuums a table after inserts (autovacuum_vacuum_insert_threshold),
      // which sets its visibility map, so index-only scans read no heap pages.
      await db.query(`VACUUM ANALYZE ${tables.join(', ')}`);
    };
    bulk = async (table, columns, rows) => {
      // Booleans are 0/1 in the seed rows (SQLite and MySQL); PostgreSQL's smallint takes them as they are.
      // One array per column (unnest): a handful of parameters per statement instead of one per value
      // (60,000 parameters a statement made the million shorts take 46 s).
      const types = new Map(
        (
          await db.query(
            'SELECT column_name, udt_name FROM information_schema.columns WHERE table_name = $1',
            [table],
          )
        ).rows.map((r) => [r.column_name, r.udt_name]),
      );
      const per = 100_000;
      for (let i = 0; i < rows.length; i += per) {
        const chunk = rows.slice(i, i + per);
        const arrays = columns.map((_, c) => chunk.map((r) => r[c]));
        const unnest = columns.map((col, c) => `$${c + 1}::${types.get(col)}[]`).join(', ');
        await db.query(
          `INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${unnest})`,
          arrays,
        );
      }
    };
  } else {
    floorEnv.FLOOR_DB_FILE = env.DB_FILE;
    mkdirSync(dirname(env.DB_FILE), { recursive: true });
    setMaxUses = async (code, n) => {
      const Database = (await import('better-sqlite3')).default;
      const db = new Database(env.DB_FILE, { timeout: 5000 });
      db.prepare('UPDATE shorts SET max_uses = ? WHERE code = ?').run(n, code);
      db.close();
    };
    bulk = async (table, columns, rows) => {
      const Database = (await import('better-sqlite3')).default;
      const db = new Database(env.DB_FILE, { timeout: 5000 });
      const insert = db.prepare(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      );
      db.transaction(() => {
        for (const r of rows) insert.run(...r);
      })();
      db.close();
    };
  }
  const args = [...NODE_FLAGS];
  if (CPU_PROF) {
    // One directory per app: worker threads write profiles of their own (Node's default names end
    // in .{pid}.{thread id}.{n}.cpuprofile; thread 0 is the main thread).
    mkdirSync(join(CPU_PROF, `app-${kind}`), { recursive: true });
    args.push('--cpu-prof', `--cpu-prof-dir=${join(CPU_PROF, `app-${kind}`)}`);
    args.push('--require', join(ROOT, 'bench', 'exit-on-sigusr2.cjs'));
  }
  args.push(MAIN);
  const { child, logFile } = spawnLogged(`app-${kind}`, args, env);
  const base = `http://127.0.0.1:${port}`;
  await waitUntilUp(base, child, logFile);

  // Seed through the API: a plain short, and one that gets maxUses = 10^9. maxUses is a logged-in
  // option, so the anonymous short gets it in the database - before its first follow, so no cache holds it.
  const create = async () => {
    const r = await fetch(`${base}/api/code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: TARGET_URL }),
    });
    if (r.status !== 201) throw new Error(`seeding failed: ${r.status} ${await r.text()}`);
    return (await r.json()).code;
  };
  const plain = await create();
  const limited = await create();
  await setMaxUses(limited, 1_000_000_000);
  const check = await fetch(`${base}/api/code/${limited}?redirect=false`);
  const info = await check.json();
  if (info.maxUses !== 1_000_000_000)
    throw new Error(`maxUses seed did not take: ${JSON.stringify(info)}`);

  // Many shorts for the cache-miss follow (codes m0 … m{MANY-1} in base 36), straight into the database.
  if (MANY > 0) {
    const started = Date.now();
    const created = new Date().toISOString().slice(0, 23).replace('T', ' ');
    const CHUNK = 100_000;
    for (let i = 0; i < MANY; i += CHUNK) {
      const rows = [];
      for (let j = i; j < Math.min(MANY, i + CHUNK); j++) {
        rows.push([seedIdOf(j), codeOf(j), TARGET_URL, 0, created, 0]);
      }
      await bulk('shorts', ['id', 'code', 'url', 'uses', 'created_at', 'dangerous'], rows);
    }
    // The planner's statistics of the shorts, as a running server's automatic analysis keeps them
    // (the tagged shorts below refresh them again when they are seeded). Without them, PostgreSQL
    // planned the app's batched read of the misses while it was `code IN (…)` as a scan of the whole
    // domain (docs/performance.md).
    if (TAGGED === 0) await analyze?.(['shorts']);
    log(`${kind}: ${MANY} shorts seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }

  // A user with an API key and a short with a year of hourly statistics (for the statistics call).
  const stats = await seedStatistics(bulk, TARGET_URL);
  // The SQLite seeding ran synchronously here for many seconds: let this process see the app close
  // the idle keep-alive connections of the requests before, or the next fetch reuses a closed one.
  await sleep(100);

  // A shared own domain with a short on it: the follow by Host (GET /{code} on the domain).
  const asAdmin = (path, body) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${stats.apiKey}` },
      body: JSON.stringify(body),
    });
  const domain = await asAdmin('/api/domains', { host: OWN_DOMAIN, shared: true });
  if (domain.status !== 201)
    throw new Error(`domain seed: ${domain.status} ${await domain.text()}`);
  const onDomain = await asAdmin('/api/code', { url: TARGET_URL, domain: OWN_DOMAIN });
  if (onDomain.status !== 201)
    throw new Error(`own-domain short: ${onDomain.status} ${await onDomain.text()}`);
  const domainCode = (await onDomain.json()).code;

  // A short with 10 redirect rules that no bench visitor matches: every follow evaluates them all.
  const rules = Array.from({ length: 10 }, (_, i) => ({
    conditions: [
      { type: 'language', value: ['fr', 'es', 'it', 'pl', 'nl'][i % 5] },
      { type: 'os', value: i % 2 ? 'ios' : 'android' },
      { type: 'query', value: `campaign=c${i}` },
    ],
    url: `${TARGET_URL}&rule=${i}`,
  }));
  const withRules = await asAdmin('/api/code', { url: TARGET_URL, rules });
  if (withRules.status !== 201)
    throw new Error(`short with rules: ${withRules.status} ${await withRules.text()}`);
  const rulesCode = (await withRules.json()).code;

  // A user whose 10 webhooks take `short.followed` (one event per human visit, CONTRACT
  // "Webhooks"), and a short of theirs: the follow pushes a record in memory, each statistics batch
  // writes 10 outbox rows per visit and the delivery job tries them (the `.invalid` host never
  // resolves: a receiver that is down, so each row is tried and then waits for its retry).
  const hooksUser = randomUUID();
  const hooksKey = `us_${randomBytes(32).toString('base64url')}`;
  const hooksAt = new Date().toISOString().slice(0, 23).replace('T', ' ');
  await bulk(
    'users',
    ['id', 'username', 'activated', 'provider', 'provider_user_id', 'roles', 'created_date'],
    [[hooksUser, 'bench-hooks', 1, 'bench', hooksUser, 'ROLE_USER', hooksAt]],
  );
  await bulk(
    'api_keys',
    ['id', 'user_id', 'key_hash', 'key_encrypted', 'created_at', 'name', 'scopes'],
    [
      [
        randomUUID(),
        hooksUser,
        createHash('sha256').update(hooksKey).digest('hex'),
        'bench',
        hooksAt,
        'bench',
        'shorts:write,webhooks:write',
      ],
    ],
  );
  const asHooks = (path, body) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${hooksKey}` },
      body: JSON.stringify(body),
    });
  for (let i = 0; i < 10; i++) {
    const hook = await asHooks('/api/webhooks', {
      url: `https://hooks.bench.invalid/${i}`,
      events: ['short.followed'],
    });
    if (hook.status !== 201) throw new Error(`webhook seed: ${hook.status} ${await hook.text()}`);
  }
  const hooked = await asHooks('/api/code', { url: TARGET_URL });
  if (hooked.status !== 201)
    throw new Error(`short with webhooks: ${hooked.status} ${await hooked.text()}`);
  const hooksCode = (await hooked.json()).code;

  // A user with TAGGED shorts of 10 tags each (shorts.tags and short_tags, as the app writes them)
  // for the tag filter, and a bulk edit of 500 of them beside a follow.
  let tagged;
  if (TAGGED > 0) {
    const started = Date.now();
    const userId = randomUUID();
    const key = `us_${randomBytes(32).toString('base64url')}`;
    const at = Date.now();
    const iso = (ms) => new Date(ms).toISOString().slice(0, 23).replace('T', ' ');
    await bulk(
      'users',
      ['id', 'username', 'activated', 'provider', 'provider_user_id', 'roles', 'created_date'],
      [[userId, 'bench-tags', 1, 'bench', userId, 'ROLE_USER', iso(at)]],
    );
    await bulk(
      'api_keys',
      ['id', 'user_id', 'key_hash', 'key_encrypted', 'created_at', 'name', 'scopes'],
      [
        [
          randomUUID(),
          userId,
          createHash('sha256').update(key).digest('hex'),
          'bench',
          iso(at),
          'bench',
          'shorts:read,shorts:write',
        ],
      ],
    );
    const CHUNK = 20_000;
    for (let i = 0; i < TAGGED; i += CHUNK) {
      const shorts = [];
      const tags = [];
      for (let j = i; j < Math.min(TAGGED, i + CHUNK); j++) {
        const id = taggedIdOf(j);
        const list = tagsOf(j);
        const created = iso(at - (TAGGED - j) * 1000);
        shorts.push([id, `tg${j.toString(36)}`, TARGET_URL, 0, created, 0, userId, list.join(',')]);
        for (const t of list) tags.push([id, t.toLowerCase(), t, `u:${userId}`, created]);
      }
      await bulk(
        'shorts',
        ['id', 'code', 'url', 'uses', 'created_at', 'dangerous', 'owner_id', 'tags'],
        shorts,
      );
      await bulk('short_tags', ['short_id', 'tag', 'label', 'space', 'created_at'], tags);
    }
    // The planner's statistics of the seeded tables (and PostgreSQL's visibility map), as a running
    // server's automatic analysis and vacuum keep them (a million rows loaded at once are not yet
    // known to PostgreSQL's planner, and its index-only scans would read every row's page).
    await analyze?.(['shorts', 'short_tags']);
    log(
      `${kind}: ${TAGGED} shorts with 10 tags each seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    // A link page of 20 of them, as its editor writes it: GET /p/bench-page renders it.
    const pageId = randomUUID();
    await bulk(
      'pages',
      ['id', 'slug', 'owner_id', 'title', 'description', 'theme', 'created_at', 'updated_at'],
      [[pageId, 'bench-page', userId, 'Herbstkampagne', 'Alle Links', 'auto', iso(at), iso(at)]],
    );
    await bulk(
      'page_links',
      ['page_id', 'position', 'short_id', 'label'],
      Array.from({ length: 20 }, (_, i) => [pageId, i, taggedIdOf(i * 997), `Link ${i + 1}`]),
    );
    tagged = {
      key,
      ids: Array.from({ length: 500 }, (_, i) => taggedIdOf(i * Math.floor(TAGGED / 500))),
    };
  }

  return {
    name: `app-${kind}`,
    base,
    child,
    floorEnv,
    scenarios: [
      { name: 'follow plain', requests: asBrowsers(`/s/${plain}`), expect: 302 },
      { name: 'follow 10 webhooks', requests: asBrowsers(`/s/${hooksCode}`), expect: 302 },
      { name: 'follow maxUses', requests: asBrowsers(`/s/${limited}`), expect: 302 },
      {
        name: 'follow own domain',
        requests: asBrowsers(`/${domainCode}`).map((r) => ({
          ...r,
          headers: { ...r.headers, host: OWN_DOMAIN },
        })),
        expect: 302,
      },
      { name: 'follow 10 rules', requests: asBrowsers(`/s/${rulesCode}`), expect: 302 },
      {
        name: 'follow bot',
        method: 'GET',
        path: `/s/${plain}`,
        headers: { 'user-agent': BOT_UA },
        expect: 302,
      },
      ...(MANY > 0
        ? [
            // Every follow as a browser is of a short not followed before: its statistics (about
            // seven keys, some 15 rows) are mostly written after the round. Its CPU counts here, and
            // the next scenario (the statistics read) starts when they are written. A bot's follow
            // records one counter: the lookup's own cost beside the statistics'.
            randomFollow('', BROWSER_UAS[0]),
            randomFollow(' bot', BOT_UA),
          ]
        : []),
      ...(tagged
        ? [
            {
              // One tag is on a tenth of the user's shorts; two tags together on fewer. A user pages
              // through the first ten pages of the filter (its total is counted once and kept per
              // space and tag set until the space's tags are written: TagCountCache).
              name: 'list ?tag= (1 tag)',
              requests: pagesOf('/api/code?tag=tag7&size=20', tagged.key),
              connections: 5,
              expect: 200,
            },
            {
              name: 'list ?tag= (2 tags)',
              requests: pagesOf('/api/code?tag=tag7&tag=Tag20&size=20', tagged.key),
              connections: 5,
              expect: 200,
            },
            {
              // A link page of 20 shorts as browsers open it (each view counted in memory).
              name: 'link page',
              requests: asBrowsers('/p/bench-page'),
              expect: 200,
            },
            {
              // Follows while 500 shorts are edited in one bulk request after another: no follow
              // may wait for a bulk's transaction (the goal reads the slowest follow).
              name: 'follow during bulk edits',
              requests: asBrowsers(`/s/${plain}`),
              expect: 302,
              during: (stop) => bulkEdits(base, tagged, stop),
            },
          ]
        : []),
      {
        name: 'statistics 1 year',
        method: 'GET',
        path: `/api/code/${stats.shortId}/statistics?granularity=day&from=${stats.from}`,
        headers: { authorization: `Bearer ${stats.apiKey}` },
        connections: 5,
        expect: 200,
      },
      {
        // One reader at a time: the latency of a year's statistics without queueing behind other
        // readers (issue 45's goal: p99 < 20 ms at one connection, at most 2 ms of app CPU).
        name: 'statistics 1 year, 1 conn.',
        method: 'GET',
        path: `/api/code/${stats.shortId}/statistics?granularity=day&from=${stats.from}`,
        headers: { authorization: `Bearer ${stats.apiKey}` },
        connections: 1,
        seconds: 2,
        expect: 200,
      },
      {
        name: 'statistics 30 d by hour',
        method: 'GET',
        path: `/api/code/${stats.shortId}/statistics?granularity=hour&from=${new Date(Date.now() - 30 * 86_400_000).toISOString()}`,
        headers: { authorization: `Bearer ${stats.apiKey}` },
        connections: 5,
        expect: 200,
      },
      {
        name: 'create (anon)',
        method: 'POST',
        path: '/api/code',
        expect: 201,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: TARGET_URL }),
      },
    ],
  };
}

async function startBare() {
  const port = await freePort();
  const { child, logFile } = spawnLogged('bare', [join(ROOT, 'bench', 'bare-server.mjs')], {
    PORT: String(port),
    BARE_CODE: 'bareCode',
    BARE_URL: TARGET_URL,
  });
  const base = `http://127.0.0.1:${port}`;
  await waitUntilUp(base, child, logFile);
  return {
    name: 'bare node:http',
    base,
    child,
    scenarios: [
      { name: 'follow plain', method: 'GET', path: '/s/bareCode', expect: 302, baseline: true },
    ],
  };
}

/** The cache-miss scenarios (randomFollow), by name: the ones measured against the floor. */
const missScenarios = () => [randomFollow('', BROWSER_UAS[0]), randomFollow(' bot', BOT_UA)];

/** Whether the floor of `app` is measured: BENCH_FLOOR, BENCH_MANY and BENCH_ONLY allow it. */
function floorWanted(app) {
  if (!FLOOR || MANY <= 0) return false;
  return missScenarios().some(
    (s) =>
      !ONLY || ONLY.test(`${app.name} / ${s.name}`) || ONLY.test(`${floorName(app)} / ${s.name}`),
  );
}
const floorName = (app) => app.name.replace(/^app-/, 'floor-');

/**
 * The floor of an app's cache misses (bench/floor-server.mjs): a bare node:http server doing the
 * same point read with the same driver on the app's database, after the app seeded it. Its
 * scenarios are the app's cache-miss follows (the same random codes among the seeded shorts); it
 * records nothing, so its rounds wait for no backlog.
 */
async function startFloor(app) {
  const port = await freePort();
  const name = floorName(app);
  const { child, logFile } = spawnLogged(name, [join(ROOT, 'bench', 'floor-server.mjs')], {
    PORT: String(port),
    ...app.floorEnv,
  });
  const base = `http://127.0.0.1:${port}`;
  await waitUntilUp(base, child, logFile, 404); // the probe's code is not a short
  const probe = await fetch(`${base}/s/${codeOf(0)}`, { redirect: 'manual' });
  if (probe.status !== 302 || probe.headers.get('location') !== TARGET_URL)
    throw new Error(`${name}: the seeded short ${codeOf(0)} answered ${probe.status}`);
  return {
    name,
    floorOf: app.name,
    base,
    child,
    scenarios: missScenarios().map((s) => ({ ...s, settleMaxMs: undefined })),
  };
}

// ---------------------------------------------------------------------------------------------
// Load

/**
 * POSTs bulk edits of the tagged shorts one after another (max uses set and cleared in turn) until
 * `stop()` is true; counts them and fails on an answer other than 200.
 */
async function bulkEdits(base, tagged, stop) {
  let n = 0;
  while (!stop()) {
    const res = await fetch(`${base}/api/code/bulk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tagged.key}` },
      body: JSON.stringify({ ids: tagged.ids, set: { maxUses: n % 2 ? null : 1_000_000 + n } }),
    });
    if (res.status !== 200) throw new Error(`bulk edit: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    n++;
  }
  return n;
}

async function load(target, scenario, seconds) {
  if (!scenario.during) return loadOnly(target, scenario, seconds);
  let done = false;
  const beside = scenario.during(() => done);
  try {
    return await loadOnly(target, scenario, seconds);
  } finally {
    done = true;
    const n = await beside;
    log(`  ${scenario.name}: ${n} bulk edits of 500 shorts beside the follows`);
  }
}

function loadOnly(target, scenario, seconds) {
  return new Promise((res, rej) => {
    autocannon(
      {
        url: target.base + (scenario.path ?? scenario.requests[0].path),
        method: scenario.method,
        headers: scenario.headers,
        body: scenario.body,
        requests: scenario.requests
          ? scenario.requests
          : scenario.setupRequest
            ? [{ setupRequest: scenario.setupRequest }]
            : undefined,
        connections: scenario.connections ?? CONNECTIONS,
        duration: seconds,
        // autocannon stops at its next sample after the duration (1 s by default): a 0.5 s warm-up
        // loaded the target for 1 s, and a round of 3 s went on to 4 when the sample came first.
        // The bench reads the total and the elapsed time, not the per-sample figures.
        sampleInt: 100,
        pipelining: 1,
        ...(scenario.overallRate ? { overallRate: scenario.overallRate } : {}),
      },
      (err, result) => (err ? rej(err) : res(result)),
    );
  });
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function main() {
  if (!existsSync(MAIN)) {
    console.error(
      `bench: ${MAIN} is missing - run npm run build first (the benchmark builds nothing itself)`,
    );
    process.exit(2);
  }
  log(
    `${cpus().length} cores, ${CONNECTIONS} connections, warm-up ${WARMUP} s, ${ROUNDS} rounds x ${DURATION} s per scenario (cache misses: ${Math.min(DURATION, MISS_SECONDS)} s), app: ${[...Object.entries({ ...START_ENV, ...APP_ENV }).map(([k, v]) => `${k}=${v}`), 'node', ...NODE_FLAGS, 'dist/src/main.js'].join(' ')}`,
  );

  // The targets are started and seeded side by side (the database servers seed theirs while this
  // process writes SQLite's), in this order in the tables.
  const why = await mariadbReachable();
  if (why) log(`MariaDB skipped: ${why}`);
  const whyPg = await postgresReachable();
  if (whyPg) log(`PostgreSQL skipped: ${whyPg}`);
  const startedAt = Date.now();
  const targets = await Promise.all([
    startBare(),
    startApp('sqlite'),
    ...(why ? [] : [startApp('mariadb')]),
    ...(whyPg ? [] : [startApp('postgres')]),
  ]);
  log(`targets started and seeded in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  // The floors of the cache misses, each on its app's database once that is seeded.
  const floors = await Promise.all(
    targets.filter((t) => t.floorEnv && floorWanted(t)).map(startFloor),
  );
  if (floors.length) log(`floors started: ${floors.map((f) => f.name).join(', ')}`);
  else log(`no floor (${FLOOR ? 'BENCH_MANY=0 or BENCH_ONLY' : 'BENCH_FLOOR=off'})`);
  targets.push(...floors);

  // Each floor run right after its app's run of the same scenario: the two are measured side by
  // side in every round (a floor run is selected by BENCH_ONLY as its own or its app's name).
  const selected = (t, s) =>
    s.baseline ||
    !ONLY ||
    ONLY.test(`${t.name} / ${s.name}`) ||
    (t.floorOf !== undefined && ONLY.test(`${t.floorOf} / ${s.name}`));
  const runs = [];
  for (const t of targets.filter((x) => x.floorOf === undefined)) {
    const floor = floors.find((f) => f.floorOf === t.name);
    for (const s of t.scenarios) {
      if (selected(t, s)) runs.push({ target: t, scenario: s, rounds: [] });
      const fs = floor?.scenarios.find((x) => x.name === s.name);
      if (fs && selected(floor, fs)) runs.push({ target: floor, scenario: fs, rounds: [] });
    }
  }

  for (const r of runs) {
    log(`warm-up ${r.target.name} / ${r.scenario.name}`);
    await load(r.target, r.scenario, WARMUP);
  }
  const ticks = clockTicks();
  // The target's CPU time (utime + stime, all its threads) from before a round until the machine
  // is quiet again after it: the work a round caused, including what it left behind (a statistics
  // batch, a database's answers read), at most SETTLE_MAX_MS after the load (a scenario's own
  // settleMaxMs: the cache misses' statistics backlog is waited for). The next round then
  // starts without waiting again.
  let settled = false;
  for (let round = 1; round <= ROUNDS; round++) {
    for (const r of runs) {
      const measured = r.target.name.startsWith('app-');
      const waited = settled ? 0 : await settle();
      if (waited >= SETTLE_MAX_MS) log(`machine still busy after ${waited} ms: measuring anyway`);
      if (measured) await loopDelay(r.target.base); // resets the app's histogram
      const before = cpuOf(r.target.child.pid, ticks);
      const threadsBefore = THREADS ? threadsMs(r.target.child.pid, ticks) : undefined;
      const seconds = Math.min(DURATION, r.scenario.seconds ?? DURATION);
      const res = await load(r.target, r.scenario, seconds);
      const duringLoad = cpuOf(r.target.child.pid, ticks);
      const threadsLoad = threadsBefore && threadsMs(r.target.child.pid, ticks);
      const loop = measured ? await loopDelay(r.target.base) : undefined;
      const settleMax = r.scenario.settleMaxMs ?? SETTLE_MAX_MS;
      // The app's own statistics backlog, read from its gauge: when it is written, whatever else
      // keeps a shared machine busy (the settle below waits for the whole machine).
      // The app's CPU is counted until that backlog is written and the app itself is quiet: on a
      // machine shared with other work, the machine's quiet came up to 60 s later, and the app's
      // idle CPU meanwhile was counted to the round's follows.
      const end = Date.now() + settleMax;
      const drained =
        measured && r.scenario.settleMaxMs
          ? backlogWritten(r.target.base, settleMax).then(async (d) => ({
              ...d,
              cpu: await processQuiet(r.target.child.pid, ticks, end),
            }))
          : undefined;
      const quietMs = await settle(settleMax);
      settled = quietMs < settleMax;
      const d = await drained;
      if (r.scenario.settleMaxMs) {
        log(
          `  ${r.target.name} quiet again ${quietMs} ms after the round` +
            (d
              ? `; statistics backlog written ${d.ms} ms after it (${d.keys} keys at its end)`
              : ''),
        );
      }
      const cpuAfter = d?.cpu ?? cpuOf(r.target.child.pid, ticks);
      const expected = Number(res.statusCodeStats?.[r.scenario.expect]?.count ?? 0);
      const total = res.requests.total;
      const cpuUs =
        ((cpuAfter.user + cpuAfter.system - before.user - before.system) * 1e6) /
        Math.max(1, total);
      // Of it, what the load's own time took (the rest: what the round left behind, and the
      // target's idle work while the machine settled).
      const loadCpuUs =
        ((duringLoad.user + duringLoad.system - before.user - before.system) * 1e6) /
        Math.max(1, total);
      if (threadsLoad) {
        const per = threadsPer(threadsBefore, threadsLoad, Math.max(1, total) / 1000);
        log(
          `  ${r.target.name} CPU us/request during the load by thread: ` +
            [...per]
              .map(([name, us]) => `${name} ${us.cpu.toFixed(0)} (system ${us.sys.toFixed(0)})`)
              .join(', '),
        );
      }
      r.rounds.push({
        rps: total / (res.duration || seconds),
        p50: res.latency.p50,
        p99: res.latency.p99,
        max: res.latency.max,
        unexpected: total - expected + res.errors + res.timeouts,
        loop,
        cpuUs,
      });
      log(
        `round ${round}/${ROUNDS} ${r.target.name.padEnd(14)} ${r.scenario.name.padEnd(15)} ` +
          `${Math.round(total / (res.duration || seconds))} req/s  p50 ${res.latency.p50} ms  p99 ${res.latency.p99} ms` +
          `  CPU ${cpuUs.toFixed(0)} us/request (${loadCpuUs.toFixed(0)} during the load)` +
          (loop
            ? `  event loop p99 ${loop.p99.toFixed(1)} ms, max ≤ ${loop.max.toFixed(0)} ms`
            : ''),
      );
    }
  }

  const baseline = runs.find((r) => r.scenario.baseline);
  const baseRps = baseline.rounds.reduce((a, b) => a + b.rps, 0) / baseline.rounds.length;
  const baseCpu = median(baseline.rounds.map((x) => x.cpuUs));
  const rows = runs.map((r) => {
    const rps = r.rounds.reduce((a, b) => a + b.rps, 0) / r.rounds.length;
    const cpu = median(r.rounds.map((x) => x.cpuUs));
    const follow = r.scenario.name.startsWith('follow');
    return {
      target: r.target.name,
      scenario: r.scenario.name,
      rps: Math.round(rps),
      p50: median(r.rounds.map((x) => x.p50)),
      p99: Math.max(...r.rounds.map((x) => x.p99)),
      max: Math.max(...r.rounds.map((x) => x.max ?? 0)),
      ratio: follow ? (rps / baseRps).toFixed(2) : '-',
      cpu: Math.round(cpu),
      cpuRatio: follow ? (baseCpu / cpu).toFixed(2) : '-',
      loopP99: r.rounds[0].loop ? Math.max(...r.rounds.map((x) => x.loop.p99)) : undefined,
      unexpected: r.rounds.reduce((a, b) => a + b.unexpected, 0),
      floorOf: r.target.floorOf,
      rawRps: rps,
      rawCpu: cpu,
    };
  });
  // The cache misses against their floor: the app's req/s / the floor's, the floor's CPU per follow
  // / the app's (as against bare: 1.00 is as cheap as the floor).
  for (const r of rows) {
    const floor = rows.find(
      (f) => f.floorOf !== undefined && f.floorOf === r.target && f.scenario === r.scenario,
    );
    if (r.floorOf !== undefined) {
      r.vsFloor = 'floor';
      r.cpuVsFloor = 'floor';
    } else if (floor) {
      r.vsFloor = (r.rawRps / floor.rawRps).toFixed(2);
      r.cpuVsFloor = (floor.rawCpu / r.rawCpu).toFixed(2);
    }
  }

  const head = [
    'target',
    'scenario',
    'req/s',
    'p50 ms',
    'p99 ms',
    'vs bare follow',
    'vs floor',
    'CPU us/req',
    'CPU vs bare',
    'CPU vs floor',
    'loop p99 ms',
    'unexpected',
  ];
  const table = [
    head,
    ...rows.map((r) => [
      r.target,
      r.scenario,
      r.rps,
      r.p50,
      r.p99,
      r.ratio,
      r.vsFloor ?? '-',
      r.cpu,
      r.cpuRatio,
      r.cpuVsFloor ?? '-',
      r.loopP99 === undefined ? '-' : r.loopP99.toFixed(1),
      r.unexpected,
    ]),
  ].map((cols) => cols.map(String));
  const widths = head.map((_, i) => Math.max(...table.map((row) => row[i].length)));
  const line = (cols) => '| ' + cols.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |';
  console.log();
  console.log(
    `URL-Shorter benchmark, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cpus().length} cores, ` +
      `${CONNECTIONS} connections, ${ROUNDS} x ${DURATION} s per scenario (cache misses: ${Math.min(DURATION, MISS_SECONDS)} s; mean req/s, median p50, worst-round p99)`,
  );
  console.log(line(table[0]));
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const row of table.slice(1)) console.log(line(row));
  console.log(
    'unexpected = responses with another status than expected (302 follow, 200 statistics, 201 create), errors, timeouts',
  );
  console.log(
    "CPU us/req = the target process's CPU time (user + system, all its threads; not the database server's) per request, median of the rounds, from the round's start until the machine was quiet again (the cache misses' app rounds: until its statistics backlog was written and the app was quiet); CPU vs bare = the bare server's CPU per follow / the target's (1.00: as cheap as the bare redirect)",
  );
  console.log(
    "vs floor = the app's req/s / its floor's, CPU vs floor = the floor's CPU per follow / the app's: the cache misses against floor-{engine} (bench/floor-server.mjs), a bare node:http server doing the same indexed point read with the same driver on the same database, run right after the app's round in every round (BENCH_FLOOR=off skips it)",
  );
  console.log(
    "loop p99 = the worst round's 99th percentile of the app's event-loop delay during the scenario (from the change of its Prometheus histogram over the round, interpolated within a bucket)",
  );
  const memory = new Map();
  for (const t of targets) {
    if (!t.child.pid) continue;
    try {
      const status = readFileSync(`/proc/${t.child.pid}/status`, 'utf8');
      const kib = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
      const rss = kib('VmRSS') / 1024;
      memory.set(t.name, rss);
      const heap = t.name.startsWith('app-') ? await heapOf(t.base).catch(() => '') : '';
      console.log(
        `memory after the run: ${t.name} RSS ${rss.toFixed(0)} MiB (peak ${(kib('VmHWM') / 1024).toFixed(0)}) ` +
          `(anonymous ${(kib('RssAnon') / 1024).toFixed(0)}, files ${(kib('RssFile') / 1024).toFixed(0)} MiB` +
          `${heap}; threads ${/Threads:\s+(\d+)/.exec(status)?.[1]})`,
      );
    } catch {
      // not Linux
    }
  }
  if (HOLD > 0) {
    // Inspect the apps as the run left them (/proc/<pid>/smaps_rollup, a heap snapshot by signal).
    for (const t of targets) log(`holding ${t.name}: pid ${t.child.pid} ${t.base ?? ''}`);
    await sleep(HOLD * 1000);
  }
  printGoals(rows, memory);
  await instancesBench();
  // The bench's own time (issue 45: the full run, with its defaults, within 12 minutes on 2 cores).
  const took = (Date.now() - started) / 1000;
  const full = !ONLY && MANY >= 1e6 && TAGGED >= 1e5 && ROUNDS === 3 && INSTANCES;
  console.log(
    `\nthe bench took ${Math.floor(took / 60)} min ${Math.round(took % 60)} s` +
      (full
        ? ` (goal for the full run < 12 min): ${took < 720 ? 'holds' : 'NOT met'}`
        : ' (not the full run: no goal)'),
  );
}

/**
 * The goals of the performance issue, one line per figure and target: the figure, the goal and
 * whether it holds, so that a reader sees the gap without reading the code.
 */
const GOALS = [
  {
    what: 'follow with statistics on, ratio to bare',
    scenario: /^follow plain$/,
    figure: (r) => Number(r.ratio),
    show: (x) => `${x.toFixed(2)}x`,
    goal: '>= 0.55x',
    holds: (x) => x >= 0.55,
  },
  {
    what: 'follow of a short with 10 redirect rules (none matching), ratio to bare',
    scenario: /^follow 10 rules$/,
    figure: (r) => Number(r.ratio),
    show: (x) => `${x.toFixed(2)}x`,
    goal: 'within 20 % of follow plain',
    holds: (x, rows, app) => {
      const plain = rows.find((r) => r.target === app && r.scenario === 'follow plain');
      return !plain || x >= 0.8 * Number(plain.ratio);
    },
  },
  {
    what: 'follow of a short whose owner has 10 webhooks on short.followed, ratio to bare',
    scenario: /^follow 10 webhooks$/,
    figure: (r) => Number(r.ratio),
    show: (x) => `${x.toFixed(2)}x`,
    goal: 'within 10 % of follow plain',
    holds: (x, rows, app) => {
      const plain = rows.find((r) => r.target === app && r.scenario === 'follow plain');
      return !plain || x >= 0.9 * Number(plain.ratio);
    },
  },
  {
    what: 'follow of random codes as browsers (cache misses, statistics on), ratio to its floor',
    scenario: /^follow 1 of \S+$/,
    figure: (r) => (r.vsFloor === undefined ? undefined : Number(r.vsFloor)),
    show: (x) => `${x.toFixed(2)}x`,
    goal: '>= 0.3x',
    holds: (x) => x >= 0.3,
  },
  {
    what: 'follow of random codes as a bot (cache misses, no statistics), ratio to its floor',
    scenario: /^follow 1 of \S+ bot$/,
    figure: (r) => (r.vsFloor === undefined ? undefined : Number(r.vsFloor)),
    show: (x) => `${x.toFixed(2)}x`,
    goal: '>= 0.5x',
    holds: (x) => x >= 0.5,
  },
  {
    what: 'list of 100,000 shorts with 10 tags each by one tag, p99 at 5 connections',
    scenario: /^list \?tag= \(1 tag\)$/,
    figure: (r) => r.p99,
    show: (x) => `${x} ms`,
    goal: '< 50 ms',
    holds: (x) => x < 50,
  },
  {
    what: 'the same list by two tags (all of them), p99 at 5 connections',
    scenario: /^list \?tag= \(2 tags\)$/,
    figure: (r) => r.p99,
    show: (x) => `${x} ms`,
    goal: '< 50 ms',
    holds: (x) => x < 50,
  },
  {
    what: 'a link page of 20 shorts as browsers open it, p99 (the goal is for SQLite)',
    scenario: /^link page$/,
    figure: (r) => r.p99,
    show: (x) => `${x} ms`,
    goal: '< 20 ms',
    holds: (x) => x < 20,
  },
  {
    what: 'the slowest follow while bulk edits of 500 shorts run one after another',
    scenario: /^follow during bulk edits$/,
    figure: (r) => r.max,
    show: (x) => `${x} ms`,
    goal: '< 250 ms',
    holds: (x) => x < 250,
  },
  {
    what: 'statistics of a year by day, p99 at 5 connections',
    scenario: /^statistics 1 year$/,
    figure: (r) => r.p99,
    show: (x) => `${x} ms`,
    goal: '< 25 ms',
    holds: (x) => x < 25,
  },
  {
    what: 'statistics of a year by day, p99 at one connection',
    scenario: /^statistics 1 year, 1 conn\.$/,
    figure: (r) => r.p99,
    show: (x) => `${x} ms`,
    goal: '< 20 ms',
    holds: (x) => x < 20,
  },
  {
    what: 'statistics of a year by day, app CPU per request (one connection)',
    scenario: /^statistics 1 year, 1 conn\.$/,
    figure: (r) => r.rawCpu / 1000,
    show: (x) => `${x.toFixed(2)} ms`,
    goal: '<= 2 ms',
    holds: (x) => x <= 2,
  },
  {
    what: 'statistics of 30 days by hour, p99 at 5 connections',
    scenario: /^statistics 30 d by hour$/,
    figure: (r) => r.p99,
    show: (x) => `${x} ms`,
    goal: '< 25 ms',
    holds: (x) => x < 25,
  },
  {
    what: 'anonymous create',
    scenario: /^create \(anon\)$/,
    figure: (r) => r.rps,
    show: (x) => `${x} req/s`,
    goal: '>= 1,500 req/s',
    holds: (x) => x >= 1500,
  },
  {
    what: 'event-loop delay p99 during the follows (worst follow scenario)',
    scenario: /^follow /,
    combine: (list) => Math.max(...list.map((r) => r.loopP99 ?? 0)),
    show: (x) => `${x.toFixed(1)} ms`,
    goal: '< 20 ms',
    holds: (x) => x < 20,
  },
  {
    what: 'event-loop delay p99 during the statistics reads (worst statistics scenario)',
    scenario: /^statistics /,
    combine: (list) => Math.max(...list.map((r) => r.loopP99 ?? 0)),
    show: (x) => `${x.toFixed(1)} ms`,
    goal: '< 20 ms',
    holds: (x) => x < 20,
  },
];

function printGoals(rows, memory) {
  console.log();
  console.log('Goals (figure: goal, whether it holds):');
  const apps = [...new Set(rows.map((r) => r.target))].filter((t) => t.startsWith('app-'));
  for (const g of GOALS) {
    for (const app of apps) {
      const list = rows.filter((r) => r.target === app && g.scenario.test(r.scenario));
      if (list.length === 0) continue;
      const x = g.combine ? g.combine(list) : g.figure(list[0]);
      if (x === undefined) continue; // no floor measured (BENCH_FLOOR=off)
      console.log(
        `  ${g.what}, ${app}: ${g.show(x)} (goal ${g.goal}): ${g.holds(x, rows, app) ? 'holds' : 'NOT met'}`,
      );
    }
  }
  for (const [name, rss] of memory) {
    if (!name.startsWith('app-')) continue;
    console.log(
      `  resident memory after the bench, ${name}: ${rss.toFixed(0)} MiB (goal < 160 MiB): ${rss < 160 ? 'holds' : 'NOT met'}`,
    );
  }
}

/** The main thread's V8 heap and external memory, from the app's Prometheus gauges. */
async function heapOf(base) {
  const r = await fetch(`${base}/management/prometheus`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await r.text();
  const mb = (name) =>
    (Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 2 ** 20).toFixed(0);
  return (
    `; main thread heap used ${mb('url_shorter_nodejs_heap_size_used_bytes')} of ${mb('url_shorter_nodejs_heap_size_total_bytes')}` +
    `, external ${mb('url_shorter_nodejs_external_memory_bytes')} MiB`
  );
}

/**
 * Milliseconds until the app's statistics backlog (`url_shorter_statistics_backlog_keys`) is empty,
 * polled every 100 ms from the end of a round (at most maxMs), and the keys it held then.
 */
async function backlogWritten(base, maxMs) {
  const t0 = Date.now();
  const keys = async () => {
    const r = await fetch(`${base}/management/prometheus`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const m = /^url_shorter_statistics_backlog_keys (\S+)$/m.exec(await r.text());
    return m ? Number(m[1]) : NaN;
  };
  const first = await keys();
  for (let n = first; n > 0 && Date.now() - t0 < maxMs; n = await keys()) await sleep(100);
  return { ms: Date.now() - t0, keys: first };
}

/**
 * Waits (until `end` at most) until the process is quiet, under 5 % of a core over SETTLE_WINDOW_MS,
 * and answers its CPU times then (cpuOf).
 */
async function processQuiet(pid, ticks, end) {
  for (;;) {
    const a = cpuOf(pid, ticks);
    await sleep(SETTLE_WINDOW_MS);
    const b = cpuOf(pid, ticks);
    const busy = b.user + b.system - a.user - a.system;
    if (busy < (0.05 * SETTLE_WINDOW_MS) / 1000 || Date.now() >= end) return b;
  }
}

// ---------------------------------------------------------------------------------------------
// Instances: CPU time per 1,000 follows, one instance vs two behind HAProxy

/** Clock ticks per second of /proc/<pid>/stat (getconf CLK_TCK; 100 on Linux). */
function clockTicks() {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
}

/**
 * CPU time of a process in seconds: user (utime) and system (stime), /proc/<pid>/stat fields 14
 * and 15; and its involuntary context switches (/proc/<pid>/status), a sign of cores shared.
 */
function cpuOf(pid, ticks) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // from field 3 (state) on
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const preempted = Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  return { user: Number(fields[11]) / ticks, system: Number(fields[12]) / ticks, preempted };
}

/** Restricts a process to the given cores (taskset); false when that is not possible here. */
function pin(pid, cores) {
  try {
    execFileSync('taskset', ['-p', '-c', cores, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Follows answered with a redirect to the target by one instance (its Prometheus counter). */
async function followsServed(base) {
  const r = await fetch(`${base}/management/prometheus`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await r.text();
  const m = /^url_shorter_follows_total\{outcome="target"\} (\d+)/m.exec(text);
  return m ? Number(m[1]) : 0;
}

async function startHaproxy(name, backends) {
  const port = await freePort();
  const cfg = [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 5s',
    '  timeout client 30s',
    '  timeout server 30s',
    '  option http-keep-alive',
    '  http-reuse always',
    'frontend web',
    `  bind 127.0.0.1:${port}`,
    '  default_backend apps',
    'backend apps',
    '  balance roundrobin',
    ...backends.map((b, i) => `  server app${i} 127.0.0.1:${b} maxconn 100`),
    '',
  ].join('\n');
  const file = join(tmp, `${name}.cfg`);
  writeFileSync(file, cfg);
  const child = spawn(HAPROXY, ['-f', file, '-db'], { stdio: 'ignore' });
  if (PIN) pin(child.pid, LOAD_CORES);
  children.add(child);
  child.on('exit', () => children.delete(child));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(`${base}/management/health/liveness`);
      return { child, base };
    } catch {
      await sleep(50);
    }
  }
  throw new Error('haproxy did not answer');
}

/** n instances of the built app on one database, behind their own HAProxy. */
async function startCluster(n, dbEnv, plainCode) {
  const apps = [];
  for (let i = 0; i < n; i++) {
    const port = await freePort();
    const env = {
      NODE_ENV: 'production',
      PORT: String(port),
      APP_SECRET: 'bench-instances-secret'.padEnd(40, 'x'),
      METRICS_TOKEN,
      ...dbEnv,
    };
    const { child, logFile } = spawnLogged(`cluster${n}-app${i}`, [...NODE_FLAGS, MAIN], env);
    if (PIN) pin(child.pid, APP_CORE);
    const base = `http://127.0.0.1:${port}`;
    await waitUntilUp(base, child, logFile);
    apps.push({ child, base, port });
  }
  const proxy = await startHaproxy(
    `haproxy-${n}`,
    apps.map((a) => a.port),
  );
  return {
    name: `${n} instance${n > 1 ? 's' : ''} behind HAProxy`,
    apps,
    proxy,
    target: { base: proxy.base },
    // The same rate per instance in both setups, so each instance works under the same load.
    // Browsers, as the other follows (statistics recorded; a request without a user agent is a bot).
    scenario: {
      method: 'GET',
      path: `/s/${plainCode}`,
      headers: { 'user-agent': BROWSER_UAS[0] },
      overallRate: INSTANCE_RATE * n,
    },
  };
}

async function instancesBench() {
  if (!INSTANCES) return log('instances comparison skipped (BENCH_INSTANCES=off)');
  if (ONLY && !ONLY.test('instances')) return log('instances comparison skipped (BENCH_ONLY)');
  if (!HAPROXY)
    return log('instances comparison skipped: haproxy is not installed (Debian: haproxy)');
  const ticks = clockTicks();
  const pinned = PIN && pin(process.pid, LOAD_CORES);
  log(
    pinned
      ? `apps pinned to core ${APP_CORE}, load generator and HAProxy to ${LOAD_CORES}`
      : 'no pinning (BENCH_PIN=off, one core, or no taskset)',
  );
  // One database for both clusters: MariaDB when it answers, else one shared SQLite file.
  let dbEnv;
  let dbName;
  if (!(await mariadbReachable())) {
    const database = `bench_inst_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    const admin = await (await mysql()).createConnection(mysqlOptions(DB_URL));
    await admin.query(
      `CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
    cleanups.push(async () => {
      await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
      await admin.end();
    });
    const u = new URL(DB_URL);
    u.pathname = `/${database}`;
    dbEnv = { DB_URL: u.toString() };
    dbName = 'MariaDB';
  } else {
    mkdirSync(join(tmp, 'instances'), { recursive: true });
    dbEnv = { DB_FILE: join(tmp, 'instances', 'bench.db') };
    dbName = 'SQLite (one shared file)';
  }

  // The short every follow goes to, created once by a first instance (it also runs the migrations).
  const seedPort = await freePort();
  const seed = spawnLogged('instances-seed', [...NODE_FLAGS, MAIN], {
    PORT: String(seedPort),
    APP_SECRET: 'bench-instances-secret'.padEnd(40, 'x'),
    ...dbEnv,
  });
  const seedBase = `http://127.0.0.1:${seedPort}`;
  await waitUntilUp(seedBase, seed.child, seed.logFile);
  const created = await fetch(`${seedBase}/api/code`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: TARGET_URL }),
  });
  const { code } = await created.json();
  await stop(seed.child);

  const clusters = [await startCluster(1, dbEnv, code), await startCluster(2, dbEnv, code)];
  for (const c of clusters) {
    log(`warm-up ${c.name}`);
    await load(c.target, c.scenario, WARMUP);
  }
  const rows = clusters.map((c) => ({ cluster: c, rounds: [] }));
  for (let round = 1; round <= INSTANCE_ROUNDS; round++) {
    // One, two; then two, one: the machine's speed drifts (its CPU per follow moved by a third
    // within seconds), and alternating the order cancels a steady drift within each pair.
    for (const r of round % 2 ? rows : [...rows].reverse()) {
      const { apps } = r.cluster;
      const cpu0 = apps.map((a) => cpuOf(a.child.pid, ticks));
      const follows0 = await Promise.all(apps.map((a) => followsServed(a.base)));
      const res = await load(r.cluster.target, r.cluster.scenario, DURATION);
      const cpu1 = apps.map((a) => cpuOf(a.child.pid, ticks));
      const follows1 = await Promise.all(apps.map((a) => followsServed(a.base)));
      const perInstance = apps.map((_, i) => {
        const follows = follows1[i] - follows0[i];
        const user = cpu1[i].user - cpu0[i].user;
        const system = cpu1[i].system - cpu0[i].system;
        const cpu = user + system;
        const preempted = cpu1[i].preempted - cpu0[i].preempted;
        return {
          follows,
          cpu,
          user,
          system,
          preempted,
          msPer1000: follows ? (cpu * 1000 * 1000) / follows : NaN,
        };
      });
      const expected = Number(res.statusCodeStats?.['302']?.count ?? 0);
      r.rounds.push({
        rps: res.requests.total / (res.duration || DURATION),
        perInstance,
        unexpected: res.requests.total - expected + res.errors + res.timeouts,
      });
      log(
        `round ${round}/${INSTANCE_ROUNDS} ${r.cluster.name.padEnd(27)} ${Math.round(res.requests.total / (res.duration || DURATION))} req/s  ` +
          perInstance
            .map(
              (p, i) =>
                `app${i}: ${p.follows} follows, ${p.user.toFixed(2)} + ${p.system.toFixed(2)} s CPU ` +
                `(user + system), ${p.msPer1000.toFixed(1)} ms/1000, ${p.preempted} preemptions`,
            )
            .join('; '),
      );
    }
  }

  // Per cluster: CPU per 1,000 follows of each instance over all rounds (total CPU / total follows),
  // and the median over the rounds of the per-round figure (all instances); the goal compares the
  // two per round (below): a round disturbed by other work on the shared machine does not decide it.
  const figures = rows.map((r) => {
    const n = r.cluster.apps.length;
    const perInstance = Array.from({ length: n }, (_, i) => {
      const follows = r.rounds.reduce((a, x) => a + x.perInstance[i].follows, 0);
      const cpu = r.rounds.reduce((a, x) => a + x.perInstance[i].cpu, 0);
      return { follows, cpu, msPer1000: (cpu * 1e6) / follows };
    });
    const perRound = r.rounds.map((x) => {
      const follows = x.perInstance.reduce((a, p) => a + p.follows, 0);
      const cpu = x.perInstance.reduce((a, p) => a + p.cpu, 0);
      return (cpu * 1e6) / follows;
    });
    return {
      name: r.cluster.name,
      rps: Math.round(r.rounds.reduce((a, x) => a + x.rps, 0) / r.rounds.length),
      perInstance,
      perRound,
      msPer1000: median(perRound),
      unexpected: r.rounds.reduce((a, x) => a + x.unexpected, 0),
    };
  });
  const [one, two] = figures;
  // The goal's figure: the median over the rounds of two's CPU per 1,000 follows against one's in
  // the same round (adjacent in time), which a drifting machine disturbs least.
  const pairs = one.perRound.map((x, i) => two.perRound[i] / x);
  const ratio = median(pairs);
  const ofMedians = two.msPer1000 / one.msPer1000;
  console.log();
  console.log(
    `Instances on ${dbName}, ${CONNECTIONS} connections through HAProxy, ${INSTANCE_ROUNDS} x ${DURATION} s per setup: ` +
      `server CPU time (utime + stime) per 1,000 follows, ${INSTANCE_RATE} follows/s per instance`,
  );
  const head = [
    'setup',
    'req/s',
    'per instance: CPU ms / 1,000 follows (follows), all rounds',
    'per round (all instances)',
    'median',
    'unexpected',
  ];
  const table = [
    head,
    ...figures.map((f) => [
      f.name,
      String(f.rps),
      f.perInstance.map((p, i) => `app${i} ${p.msPer1000.toFixed(1)} (${p.follows})`).join(', '),
      f.perRound.map((x) => x.toFixed(1)).join(' / '),
      f.msPer1000.toFixed(1),
      String(f.unexpected),
    ]),
  ];
  const widths = head.map((_, i) => Math.max(...table.map((row) => row[i].length)));
  const line = (cols) => '| ' + cols.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |';
  console.log(line(table[0]));
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const row of table.slice(1)) console.log(line(row));
  console.log(
    `two instances vs one, per round: ${pairs.map((x) => x.toFixed(2)).join(' / ')}; ` +
      `the ratio of the medians above: ${ofMedians.toFixed(2)}`,
  );
  console.log(
    `two instances vs one (median of the rounds' ratios): ${ratio.toFixed(2)} x the CPU per 1,000 follows ` +
      `(goal: the same within ${CPU_GOAL * 100} %): ${Math.abs(ratio - 1) <= CPU_GOAL ? 'met' : 'NOT met'}`,
  );
}

async function shutdown() {
  for (const child of [...children]) await stop(child);
  for (const c of cleanups) await c().catch((e) => log(`cleanup: ${e.message}`));
  if (process.env.BENCH_LOGS) {
    mkdirSync(process.env.BENCH_LOGS, { recursive: true });
    cpSync(tmp, process.env.BENCH_LOGS, {
      recursive: true,
      filter: (f) => !/\.(db|sqlite)/.test(f),
    });
  }
  rmSync(tmp, { recursive: true, force: true });
}

process.on('SIGINT', () => {
  void shutdown().then(() => process.exit(130));
});

main()
  .then(shutdown, async (err) => {
    console.error(
      'bench failed:',
      err instanceof Error ? err.message : err,
      err?.cause ?? '',
      err?.stack ?? '',
    );
    await shutdown();
    process.exitCode = 1;
  })
  .then(() => process.exit());
