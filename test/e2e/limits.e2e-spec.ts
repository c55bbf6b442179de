import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, useTestApp, useTestDatabase } from '../support/app';

import { loginAs } from '../support/login';
import { expectProblem } from '../support/problem';
import { PrivateRedis } from '../support/redis-server';

const ANON = 20;
const USER = 30;

/** Runs `jobs` with at most `parallel` at a time; the results in order. */
async function pool<T>(count: number, parallel: number, job: (i: number) => Promise<T>) {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await job(i);
      }
    }),
  );
  return results;
}

/**
 * CONTRACT "Limits": anonymous creates per client address and creates per user, counted in Redis
 * by every instance together, 429 problem+json with Retry-After beyond them, nothing written.
 */
describe('rate limits of creates', () => {
  const redis = new PrivateRedis();
  beforeAll(() => redis.start());
  afterAll(() => redis.stop());
  const db = useTestDatabase();
  // Two instances on one database and the private Redis.
  const env = () => ({
    ...db.env,
    REDIS_URL: redis.url,
    // The test sends X-Forwarded-For from loopback, so each case is a client of its own.
    TRUST_PROXY: 'loopback',
    LIMIT_ANON_CREATE: `${ANON}/h,${ANON + 5}/d`,
    LIMIT_USER_CREATE: `${USER}/d`,
    AUTH_DEV_LOGIN: 'true',
    ADMIN_USERS: 'dev:admin',
  });
  const a = useTestApp(env);
  const b = useTestApp(env);

  const createFrom = (t: TestApp, client: string, url: string) =>
    t.post('/api/code', { url }, { 'x-forwarded-for': client });

  async function countShorts(prefix: string): Promise<number> {
    const rows = await a.query<Array<{ n: number | string }>>(
      'SELECT COUNT(*) AS n FROM shorts WHERE url LIKE ?',
      [`${prefix}%`],
    );
    return Number(rows[0].n);
  }

  it('1,000 anonymous creates from one address across two instances: the configured number of 201s, 429 for the rest, nothing written', async () => {
    const statuses = await pool(1000, 20, async (i) => {
      const res = await createFrom(i % 2 ? a : b, '198.51.100.1', `https://example.com/flood/${i}`);
      if (res.status === 429 && i > 900) {
        const body = await expectProblem(res, 429);
        expect(body).toMatchObject({ detail: 'Too many requests', errorKey: 'rate_limited' });
        const retryAfter = Number(res.headers.get('retry-after'));
        expect(Number.isInteger(retryAfter)).toBe(true);
        // The hourly rule: the next slot opens within an hour / 20.
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(3600 / ANON + 1);
        expect((body as { retryAfter?: number }).retryAfter).toBe(retryAfter);
      } else {
        await res.arrayBuffer();
      }
      return res.status;
    });
    expect(statuses.filter((s) => s === 201)).toHaveLength(ANON);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1000 - ANON);
    expect(await countShorts('https://example.com/flood/')).toBe(ANON);
  });

  it('each address has its own allowance; an IPv6 /64 is one client', async () => {
    for (let i = 0; i < ANON; i++) {
      expect((await createFrom(a, '2001:db8:5:6::1', `https://example.com/v6/${i}`)).status).toBe(
        201,
      );
    }
    await expectProblem(
      await createFrom(b, '2001:db8:5:6:ffff::2', 'https://example.com/v6/x'),
      429,
    );
    expect((await createFrom(b, '2001:db8:5:7::1', 'https://example.com/v6/y')).status).toBe(201);
    expect((await createFrom(a, '198.51.100.2', 'https://example.com/v6/z')).status).toBe(201);
  });

  it('a refused create writes nothing and a bad request is still a 400 first', async () => {
    for (let i = 0; i < ANON; i++) {
      await createFrom(a, '198.51.100.3', `https://example.com/bad/${i}`);
    }
    // Field errors are found before the limit: the caller learns what is wrong with the request.
    const bad = await expectProblem(
      await createFrom(a, '198.51.100.3', 'javascript:alert(1)'),
      400,
    );
    expect(bad.fieldErrors?.url).toBeDefined();
    await expectProblem(await createFrom(a, '198.51.100.3', 'https://example.com/bad/more'), 429);
    expect(await countShorts('https://example.com/bad/')).toBe(ANON);
  });

  it('a user is limited across session and API key and instances; admins are exempt', async () => {
    const alice = await loginAs(a, 'alice');
    const key = (await (await alice.put('/api/self/apikey')).json()) as { id: string };
    const statuses: number[] = [];
    for (let i = 0; i < USER + 5; i++) {
      const res =
        i % 2
          ? await alice.post('/api/code', { url: `https://example.com/alice/${i}` })
          : await b.post(
              '/api/code',
              { url: `https://example.com/alice/${i}` },
              { authorization: `Bearer ${key.id}` },
            );
      statuses.push(res.status);
      if (res.status === 429) {
        expect((await expectProblem(res, 429)).errorKey).toBe('rate_limited');
      }
    }
    expect(statuses.slice(0, USER).every((s) => s === 201)).toBe(true);
    expect(statuses.slice(USER)).toEqual([429, 429, 429, 429, 429]);

    const admin = await loginAs(b, 'admin');
    for (let i = 0; i < USER + 5; i++) {
      expect(
        (await admin.post('/api/code', { url: `https://example.com/admin/${i}` })).status,
      ).toBe(201);
    }
  });

  it('with Redis away each instance limits on its own counts: never a 500, never a hang', async () => {
    await redis.stop();
    const statuses: number[] = [];
    for (let i = 0; i < ANON + 5; i++) {
      const start = Date.now();
      const res = await createFrom(a, '198.51.100.9', `https://example.com/noredis/${i}`);
      await res.arrayBuffer();
      expect(Date.now() - start).toBeLessThan(5000);
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(ANON);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    // The other instance counts on its own while Redis is away.
    expect((await createFrom(b, '198.51.100.9', 'https://example.com/noredis/b')).status).toBe(201);
  });
});
