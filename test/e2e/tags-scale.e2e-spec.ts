import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_DB_KIND } from '../support/database';
import { useTestApp } from '../support/app';
import { useLogin } from '../support/login';

/**
 * The tag filter and the counts at scale (TAGS_SCALE=1, SQLite): 100,000 shorts of one user with
 * 10 tags each (1,000,000 rows of short_tags; a tag on every short, 100 tags on about 10% each, a
 * rare one on 10) and the time of a page of the own list by tags, of its count and of
 * GET /api/tags. Run by hand: `TAGS_SCALE=1 npx vitest run --project e2e test/e2e/tags-scale…`.
 */
const SHORTS = 100_000;

describe.skipIf(TEST_DB_KIND !== 'sqlite' || !process.env.TAGS_SCALE)('tags at scale', () => {
  // TAGS_SCALE_DB=file keeps the seeded database for another run (or for EXPLAIN).
  const file = process.env.TAGS_SCALE_DB;
  const t = useTestApp({ AUTH_DEV_LOGIN: 'true', ...(file ? { DB_FILE: file } : {}) });
  const alice = useLogin(t, 'alice');

  beforeAll(async () => {
    const db = (
      t.ds.driver as unknown as {
        databaseConnection: {
          prepare(sql: string): { run(...p: unknown[]): unknown };
          transaction(fn: () => void): () => void;
        };
      }
    ).databaseConnection;
    const space = `u:${alice.userId}`;
    const seeded = await t.query('SELECT COUNT(*) AS n FROM shorts WHERE owner_id = ?', [
      alice.userId,
    ]);
    if (Number(seeded[0].n) >= SHORTS) return;
    const insertShort = db.prepare(
      `INSERT INTO shorts (id, code, domain, url, uses, created_at, owner_id, tags, dangerous, health_failures)
       VALUES (?, ?, '', ?, 0, ?, ?, ?, 0, 0)`,
    );
    const tagRow = db.prepare(
      'INSERT INTO short_tags (short_id, tag, label, space) VALUES (?, ?, ?, ?)',
    );
    const started = Date.now();
    for (let from = 0; from < SHORTS; from += 5000) {
      db.transaction(() => {
        for (let j = from; j < from + 5000; j++) {
          const id = randomUUID();
          const tags = ['alle'];
          for (let k = 0; tags.length < (j < 10 ? 9 : 10); k++) {
            const tag = `t${(j * 7 + k * 13) % 100}`;
            if (!tags.includes(tag)) tags.push(tag);
          }
          if (j < 10) tags.push('selten');
          const at = new Date(Date.UTC(2026, 0, 1) + j * 60_000)
            .toISOString()
            .replace('T', ' ')
            .replace('Z', '');
          insertShort.run(
            id,
            `s${j}`,
            `https://example.com/${j}`,
            at,
            alice.userId,
            tags.join(','),
          );
          for (const tag of tags) tagRow.run(id, tag, tag, space);
        }
      })();
      await new Promise((r) => setImmediate(r));
    }
    console.log(`seeded ${SHORTS} shorts × 10 tags in ${Date.now() - started} ms`);
  }, 600_000);

  /**
   * A request's wall time and CPU time (the app runs in this process: its CPU and the client's),
   * median and maximum of 7, and the longest the event loop was held meanwhile.
   */
  const time = async (path: string) => {
    const wall: number[] = [];
    const cpu: number[] = [];
    let body: unknown;
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    for (let i = 0; i < 7; i++) {
      const at = performance.now();
      const used = process.cpuUsage();
      const res = await alice.fetch(path);
      body = await res.json();
      const spent = process.cpuUsage(used);
      cpu.push((spent.user + spent.system) / 1000);
      wall.push(performance.now() - at);
      expect(res.status, JSON.stringify(body)).toBe(200);
    }
    loop.disable();
    const order = (a: number, b: number) => a - b;
    wall.sort(order);
    cpu.sort(order);
    return { wall: wall[3], cpu: cpu[3], cpuMax: cpu[6], held: loop.max / 1e6, body };
  };

  it('answers a page by tags and the counts within tens of milliseconds', async () => {
    const rows: string[] = [];
    for (const [what, path] of [
      ['no filter', '/api/code'],
      ['tag on every short', '/api/code?tag=alle'],
      ['tag on ~10%', '/api/code?tag=t5'],
      ['two tags (all of them)', '/api/code?tag=t5&tag=T18'],
      ['three tags', '/api/code?tag=t5&tag=t18&tag=alle'],
      ['rare tag (10 shorts)', '/api/code?tag=selten'],
      ['unknown tag', '/api/code?tag=nirgends'],
      ['tag + search', '/api/code?tag=t5&search=s99'],
      ['tag, page 40', '/api/code?tag=t5&page=40'],
      ['tag, sort by code', '/api/code?tag=t5&sort=code,asc'],
      ['GET /api/tags', '/api/tags'],
    ] as const) {
      const { wall, cpu, cpuMax, held, body } = await time(path);
      const total = (body as { totalElements?: number }).totalElements;
      rows.push(
        `${what.padEnd(24)} CPU median ${cpu.toFixed(1)} ms (max ${cpuMax.toFixed(1)}), wall median ${wall.toFixed(1)} ms, event loop held at most ${held.toFixed(1)} ms${total === undefined ? '' : `, ${total} found`}`,
      );
    }
    console.log(rows.join('\n'));
  }, 600_000);
});
