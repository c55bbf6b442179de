import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FollowService } from '../../src/follow/follow.service';
import { ShortEntity } from '../../src/shorts/short.entity';
import { FailureReporter } from '../../src/failure/failure-reporter';
import { LogService } from '../../src/logging/log.service';
import { createTestApp, type TestApp } from '../support/app';
import { insertShort } from '../support/shorts';
import { TEST_DB_KIND } from '../support/database';
import { DatabaseOutage } from '../support/outage';

// SQLite's leg uses a shorter timeout and fewer concurrent writes than MariaDB's (a write waits for
// the lock, asynchronously, for DB_TIMEOUT_MS; see src/database/sqlite-busy.ts).
const SQLITE = TEST_DB_KIND === 'sqlite';
const TIMEOUT_MS = SQLITE ? 200 : 1000;
const ROUNDS = SQLITE ? 5 : 15;
const PARALLEL = SQLITE ? 10 : 30;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The app while its database is away (MariaDB: refused and partitioned through a TCP proxy;
 * SQLite: locked by another connection): fast 503s with Retry-After instead of 500s or hangs, a
 * few log lines instead of one stack trace per request, and buffered counts that are written
 * exactly once however often a flush is cut.
 */
describe(`database outage`, () => {
  const outage = new DatabaseOutage();
  let t: TestApp;
  const shorts = () => t.ds.getRepository(ShortEntity);

  beforeAll(async () => {
    const env = await outage.setup();
    t = await createTestApp({
      ...env,
      DB_TIMEOUT_MS: String(TIMEOUT_MS),
      LOG_LEVEL: 'info',
      LOG_STDOUT: 'false',
    });
  });
  afterAll(async () => {
    await t?.close();
    await outage.teardown();
  });

  const insert = (fields: Partial<ShortEntity> = {}) =>
    insertShort(t, { url: 'https://example.com/outage', ...fields });

  /** Runs a request and measures it. */
  async function timed(path: string, init?: RequestInit) {
    const start = Date.now();
    const res = await t.fetch(path, init);
    const body = await res.text();
    return { res, body, ms: Date.now() - start };
  }

  const create = (url: string) =>
    timed('/api/code', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url }),
    });

  async function recovered(): Promise<number> {
    const start = Date.now();
    for (;;) {
      const r = await create('https://example.com/after');
      if (r.res.status === 201) return Date.now() - start;
      if (Date.now() - start > 10_000) throw new Error(`no recovery: ${r.res.status} ${r.body}`);
      await sleep(100);
    }
  }

  function expectUnavailable(r: { res: Response; body: string; ms: number }): void {
    expect(r.res.status).toBe(503);
    expect(r.res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(r.res.headers.get('retry-after')).toBe('5');
    expect(r.body).not.toMatch(/ECONN|PROTOCOL_|SQLITE|ER_|at \w+ \(/);
    expect(r.ms).toBeLessThan(5000);
  }

  it('a database that refuses answers 503 quickly, cached follows keep redirecting, and it recovers by itself', async () => {
    const plain = await insert({ url: 'https://example.com/plain' });
    const limited = await insert({ url: 'https://example.com/limited', maxUses: 1_000_000 });
    expect((await t.fetch(`/s/${plain.code}`)).status).toBe(302); // cached now
    const logs = t.app.get(LogService);
    const since = new Date();

    await outage.cut();
    try {
      for (let i = 0; i < ROUNDS; i++) {
        expectUnavailable(await create(`https://example.com/during/${i}`));
        expectUnavailable(await timed(`/s/${limited.code}`));
        const follow = await timed(`/s/${plain.code}`);
        expect(follow.res.status).toBe(302);
        expect(follow.res.headers.get('location')).toBe('https://example.com/plain');
      }
    } finally {
      await outage.restore();
    }
    expect(await recovered()).toBeLessThan(5000);

    // Many failed requests: one line when the outage started, no stack traces, no per-request lines.
    const lines = logs.recent(since).filter((l) => l.level !== 'info' && l.level !== 'debug');
    expect(lines.filter((l) => /Database unavailable/.test(l.message))).toHaveLength(1);
    expect(lines.filter((l) => /\n\s+at /.test(JSON.stringify(l)))).toEqual([]);
    expect(lines.length).toBeLessThanOrEqual(3);
    t.app.get(FailureReporter).database.stop();
  });

  it('a silent database (partition) answers 503 within the timeouts, never hangs', async () => {
    const limited = await insert({ url: 'https://example.com/limited2', maxUses: 1_000_000 });
    outage.partition();
    try {
      const results = await Promise.all(
        Array.from({ length: PARALLEL }, (_, i) =>
          i % 2 ? create(`https://example.com/p/${i}`) : timed(`/s/${limited.code}`),
        ),
      );
      for (const r of results) expectUnavailable(r);
    } finally {
      outage.heal();
    }
    expect(await recovered()).toBeLessThan(5000);
    t.app.get(FailureReporter).database.stop();
  });

  it('use counts are written exactly once however often a flush is cut (12 cuts of 250-500 ms)', async () => {
    const codes = t.app.get(FollowService);
    // One after the other: 200 at once can wait longer than the 1 s pool timeout on a busy machine.
    const list: ShortEntity[] = [];
    for (let i = 0; i < 200; i++) list.push(await insert());
    for (const s of list) await t.fetch(`/s/${s.code}`); // cache them (these count too)
    const seen = new Map<string, number>(list.map((s) => [s.id, 1]));
    await codes.flushUses();

    let running = true;
    const worker = async () => {
      while (running) {
        const s = list[Math.floor(Math.random() * list.length)];
        const res = await t.fetch(`/s/${s.code}`);
        if (res.status === 302 && res.headers.get('location') === s.url) {
          seen.set(s.id, (seen.get(s.id) ?? 0) + 1);
        }
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    for (let i = 0; i < 12; i++) {
      await sleep(150 + Math.random() * 200);
      await outage.cut();
      await sleep(250 + Math.random() * 250);
      await outage.restore();
    }
    running = false;
    await Promise.all(workers);
    for (let i = 0; i < 50; i++) {
      await codes.flushUses();
      if (codes.pendingUses() === 0) break;
      await sleep(200);
    }
    expect(codes.pendingUses()).toBe(0);
    const rows = await shorts().findBy(list.map((s) => ({ id: s.id })));
    const stored = new Map(rows.map((r) => [r.id, r.uses]));
    const total = [...seen.values()].reduce((a, b) => a + b, 0);
    expect([...stored.values()].reduce((a, b) => a + b, 0)).toBe(total);
    expect(stored).toEqual(seen);
    t.app.get(FailureReporter).database.stop();
  });

  it('a flush whose commit answer is lost is retried without counting twice', async () => {
    const codes = t.app.get(FollowService);
    const s = await insert();
    for (let i = 0; i < 7; i++) expect((await t.fetch(`/s/${s.code}`)).status).toBe(302);
    // The next commit succeeds in the database, but the app is told it failed.
    const createRunner = t.ds.createQueryRunner.bind(t.ds);
    let broken = true;
    t.ds.createQueryRunner = (...args) => {
      const runner = createRunner(...args);
      const commit = runner.commitTransaction.bind(runner);
      runner.commitTransaction = async () => {
        await commit();
        if (broken) {
          broken = false;
          throw Object.assign(new Error('Connection lost: The server closed the connection.'), {
            code: 'PROTOCOL_CONNECTION_LOST',
            fatal: true,
          });
        }
      };
      return runner;
    };
    try {
      await codes.flushUses();
      expect(broken).toBe(false);
      expect(codes.pendingUses()).toBeGreaterThan(0); // kept: the outcome was unknown
      await codes.flushUses();
    } finally {
      t.ds.createQueryRunner = createRunner;
    }
    expect(codes.pendingUses()).toBe(0);
    expect((await shorts().findOneByOrFail({ id: s.id })).uses).toBe(7);
  });
});
