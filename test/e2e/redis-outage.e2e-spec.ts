import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CacheBus } from '../../src/redis/cache-bus';
import { RedisConnection } from '../../src/redis/redis.connection';
import { createTestApp, type TestApp } from '../support/app';
import { createTestDatabase, TEST_DB_KIND, type TestDatabase } from '../support/database';
import { asLoggedIn, sessionCookieFrom } from '../support/login';
import { PrivateRedis } from '../support/redis-server';
import { createCode, createdShort, type ApiClient } from '../support/shorts';
import { waitFor, pause } from '../support/wait';

const MAX_TRIES = 3;
/** Every answer during the outage comes within this bound (the issue: never a hang). */
const ANSWER_BOUND_MS = 5000;
const log = (msg: string) => console.log(`[redis-outage ${TEST_DB_KIND}] ${msg}`);

interface Answer {
  status: number;
  ms: number;
  type: string | null;
  retryAfter: string | null;
  location: string | null;
  body: string;
}

/**
 * Two instances on one database and a PRIVATE Redis (its own redis-server on a free port; the
 * shared one on 6379 is never touched), which the test stops and starts again while follows and
 * logins keep coming. Redis holds sessions, password-lockout counts and the cache invalidation bus.
 */
describe(`Redis outage under load (${TEST_DB_KIND})`, () => {
  const redis = new PrivateRedis();
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  const answers: Answer[] = [];
  const env = () => ({
    ...db.env,
    REDIS_URL: redis.url,
    AUTH_DEV_LOGIN: 'true',
    PASSWORD_MAX_TRIES: String(MAX_TRIES),
    LOG_STDOUT: 'false',
  });

  beforeAll(async () => {
    await redis.start();
    db = await createTestDatabase();
    a = await createTestApp(env());
    b = await createTestApp(env());
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
    await redis.stop();
  });

  async function call(t: TestApp, path: string, init: RequestInit = {}): Promise<Answer> {
    const start = Date.now();
    const res = await fetch(t.url + path, {
      redirect: 'manual',
      signal: AbortSignal.timeout(15_000),
      ...init,
    });
    const body = await res.text();
    const answer: Answer = {
      status: res.status,
      ms: Date.now() - start,
      type: res.headers.get('content-type'),
      retryAfter: res.headers.get('retry-after'),
      location: res.headers.get('location'),
      body,
    };
    answers.push(answer);
    if (res.status === 200 || res.status === 302) {
      const cookie = sessionCookieFrom(res);
      if (cookie) (answer as Answer & { cookie?: string }).cookie = cookie;
    }
    return answer;
  }

  async function login(t: TestApp, username: string): Promise<string> {
    const r = await call(t, `/api/auth/dev?username=${username}`);
    expect(r.status, r.body).toBe(302);
    const cookie = (r as Answer & { cookie?: string }).cookie;
    expect(cookie).toBeDefined();
    return cookie as string;
  }

  /** Instance `t` as an API client of test/support whose answers count among `answers` (`call`). */
  const counted = (t: TestApp): ApiClient => ({
    fetch: async (path, init) => asResponse(await call(t, path, init)),
    post: async (path, body) =>
      asResponse(
        await call(t, path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      ),
  });
  const asResponse = (r: Answer) =>
    new Response(r.body, { status: r.status, headers: r.type ? { 'content-type': r.type } : {} });
  const create = (t: TestApp, body: Record<string, unknown>) => createCode(counted(t), body);
  /** The code and id of a created short (read back on instance a). */
  const created = (res: Response) => createdShort(res, counted(a));

  const ready = (t: TestApp) => t.app.get(RedisConnection).ready !== null;
  /** Connected, and its cache bus subscribed again (messages from now on reach it). */
  const rejoined = (t: TestApp) => ready(t) && t.app.get(CacheBus).subscribed;

  /** Waits (at most 15 s) until `ok`; returns the ms it took. */
  async function msUntil(what: string, ok: () => boolean): Promise<number> {
    const start = Date.now();
    await waitFor(ok, { timeoutMs: 15_000, intervalMs: 20, message: what });
    return Date.now() - start;
  }

  /** The total of the own list's filter `tag=ausfall` on instance b, as the session `cookie`. */
  async function taggedOnB(cookie: string): Promise<number> {
    const r = await call(b, '/api/code?size=1&tag=ausfall', { headers: { cookie } });
    expect(r.status, r.body).toBe(200);
    return (JSON.parse(r.body) as { totalElements: number }).totalElements;
  }

  function expectUnavailable(r: Answer): void {
    expect(r.status, r.body).toBe(503);
    expect(r.type).toMatch(/^application\/problem\+json/);
    expect(r.retryAfter).toBe('5');
    expect(r.body).not.toMatch(/ECONN|Redis|ioredis|at \w+ \(/i);
  }

  it('follows and logins keep working, session calls answer 503, the lockout falls back, invalidation resumes', async () => {
    const t0 = Date.now();
    // Before: a session in Redis, a short cached on both instances.
    const before = await login(a, 'redis-before');
    expect((await call(b, '/api/account', { headers: { cookie: before } })).status).toBe(200);
    const plain = await create(a, { url: 'https://example.com/redis-plain' });
    const protectedCode = await create(a, {
      url: 'https://example.com/redis-pw',
      password: 'right-one',
    });
    for (const t of [a, b]) expect((await call(t, `/s/${plain}`)).status).toBe(302);

    // A steady load for the whole test: follows on both instances, logins whose session is used
    // on the other instance, and calls with the session made before the outage.
    let running = true;
    // 'stopping': Redis is being stopped and the instances have not all noticed yet; 'restarting':
    // it is back but not every instance has reconnected (a session one instance wrote to Redis is
    // then a clear 503 on another). Calls in either window meet a switch.
    let phase: 'up' | 'stopping' | 'down' | 'restarting' | 'back' = 'up';
    /** Whether Redis went away or came back since `seen` (or is doing so right now). */
    const switched = (seen: typeof phase) =>
      seen !== phase || phase === 'stopping' || phase === 'restarting';
    const counts = { follows: 0, logins: 0, sessionCalls: 0, sessionCalls503: 0 };
    const followWorker = async (i: number) => {
      while (running) {
        const r = await call(i++ % 2 ? a : b, `/s/${plain}`);
        expect(r.location).toBe('https://example.com/redis-plain');
        counts.follows++;
        await pause(2); // the workers pace a steady load (time passes on purpose)
      }
    };
    const loginWorker = async () => {
      let i = 0;
      while (running) {
        const [x, y] = i % 2 ? [a, b] : [b, a];
        const seen = phase;
        const r = await call(x, `/api/auth/dev?username=redis-load-${i++}`);
        const cookie = (r as Answer & { cookie?: string }).cookie;
        // Only a login under way at the moment Redis goes away may fail, with a clear 503.
        if (r.status !== 302 && switched(seen)) {
          expectUnavailable(r);
          continue;
        }
        expect(r.status, r.body).toBe(302);
        const account = await call(y, '/api/account', { headers: { cookie: cookie as string } });
        if (account.status !== 200 && switched(seen)) expectUnavailable(account);
        else expect(account.status, account.body).toBe(200);
        counts.logins++;
        await pause(20); // paced, as above
      }
    };
    const sessionWorker = async () => {
      let i = 0;
      while (running) {
        const seen = phase;
        const r = await call(i++ % 2 ? a : b, '/api/account', { headers: { cookie: before } });
        // Up: 200. Down: 503 (the session lives in Redis). Back: the restarted Redis is empty, 401.
        // Around the switches either neighbour is fine; never a 500.
        expect([200, 401, 503]).toContain(r.status);
        if (seen === 'down' && phase === 'down') expectUnavailable(r);
        if (r.status === 503) counts.sessionCalls503++;
        counts.sessionCalls++;
        await pause(20); // paced, as above
      }
    };
    const load = Promise.all([followWorker(0), followWorker(1), loginWorker(), sessionWorker()]);

    let c: TestApp | undefined;
    try {
      await pause(300); // load before the outage, on purpose
      // ---- Redis goes away.
      const cut = Date.now();
      phase = 'stopping';
      await redis.stop();
      await msUntil('both instances notice', () => !ready(a) && !ready(b));
      phase = 'down';
      log(`Redis stopped; both instances noticed after ${Date.now() - cut} ms`);

      // Follows of new (uncached) shorts redirect.
      const fresh = await create(b, { url: 'https://example.com/redis-during' });
      expect((await call(a, `/s/${fresh}`)).location).toBe('https://example.com/redis-during');

      // Logins keep working, and the new session works on the other instance.
      const during = await login(a, 'redis-during');
      const ownB = asLoggedIn(b, during);
      const r = await ownB.fetch('/api/account');
      expect(r.status).toBe(200);
      expect(((await r.json()) as { username: string }).username).toBe('redis-during');

      // Calls with a session that lives in Redis: a clear 503, never a 500 or a 401.
      expectUnavailable(await call(b, '/api/account', { headers: { cookie: before } }));
      expectUnavailable(
        await call(a, '/api/logout', {
          method: 'POST',
          headers: { cookie: before, origin: a.url },
        }),
      );

      // The password lockout falls back to the in-process limiter of the instance.
      const locs: Array<string | null> = [];
      for (let i = 0; i <= MAX_TRIES; i++) {
        locs.push((await call(a, `/s/${protectedCode}?password=bad-${i}`)).location);
      }
      expect(locs).toEqual([
        ...Array(MAX_TRIES).fill(`/s/${protectedCode}/password-required?wrong=true`),
        `/s/${protectedCode}/password-required?locked=true`,
      ]);

      // An edit on A cannot reach B's caches now (no bus): B serves its cached entry meanwhile,
      // and its kept total of the tag filter (TagCountCache).
      const stale = await created(
        await ownB.post('/api/code', { url: 'https://example.com/old', tags: ['ausfall'] }),
      );
      expect((await call(b, `/s/${stale.code}`)).location).toBe('https://example.com/old');
      expect(await taggedOnB(during)).toBe(1);
      const patch = await asLoggedIn(a, during).fetch(`/api/code/${stale.id}`, {
        method: 'PATCH',
        body: JSON.stringify({ url: 'https://example.com/new', tags: [] }),
      });
      expect(patch.status).toBe(200);
      expect((await call(a, `/s/${stale.code}`)).location).toBe('https://example.com/new');
      expect((await call(b, `/s/${stale.code}`)).location).toBe('https://example.com/old');
      expect(await taggedOnB(during)).toBe(1);

      // A third instance boots while Redis is away.
      c = await createTestApp(env());
      expect((await call(c, `/s/${plain}`)).status).toBe(302);

      // Load goes on while Redis stays away (time passes on purpose).
      await pause(3000);
      log(`outage of ${Date.now() - cut} ms under load: ${JSON.stringify(counts)}`);

      // ---- Redis comes back (empty: no persistence).
      const back = Date.now();
      phase = 'restarting';
      await redis.start();
      const reconnectMs = await msUntil('all instances reconnect', () =>
        [a, b, c as TestApp].every(rejoined),
      );
      phase = 'back';
      log(`Redis restarted; all instances reconnected after ${reconnectMs} ms`);

      // The entry that missed its invalidation is gone once the instances are back.
      await expect
        .poll(async () => (await call(b, `/s/${stale.code}`)).location, {
          timeout: 1000,
          interval: 10,
        })
        .toBe('https://example.com/new');
      log(`stale entry dropped ${Date.now() - back} ms after the restart`);
      // So is B's kept tag total (A publishes the drop it kept, B resyncs: either drops it).
      await expect.poll(() => taggedOnB(during), { timeout: 1000, interval: 10 }).toBe(0);

      // Invalidation through Redis works again, also on the instance that booted during the outage.
      const next = await created(await ownB.post('/api/code', { url: 'https://example.com/v1' }));
      for (const t of [b, c])
        expect((await call(t, `/s/${next.code}`)).location).toBe('https://example.com/v1');
      const edit = Date.now();
      await asLoggedIn(a, during).fetch(`/api/code/${next.id}`, {
        method: 'PATCH',
        body: JSON.stringify({ url: 'https://example.com/v2' }),
      });
      for (const t of [b, c]) {
        await expect
          .poll(async () => (await call(t, `/s/${next.code}`)).location, {
            timeout: 1000,
            interval: 10,
          })
          .toBe('https://example.com/v2');
      }
      log(`invalidation after the reconnect reached the others in ${Date.now() - edit} ms`);

      // The lockout is shared through Redis again: tries on A and B add up.
      const shared = await create(a, { url: 'https://example.com/pw2', password: 'right-one' });
      const tries: Array<string | null> = [];
      for (let i = 0; i <= MAX_TRIES; i++) {
        tries.push((await call(i % 2 ? a : b, `/s/${shared}?password=bad-${i}`)).location);
      }
      expect(tries[MAX_TRIES]).toBe(`/s/${shared}/password-required?locked=true`);

      // The session made during the outage still works; the one in the lost Redis is gone (401).
      expect((await call(b, '/api/account', { headers: { cookie: during } })).status).toBe(200);
      expect((await call(a, '/api/account', { headers: { cookie: before } })).status).toBe(401);
      await pause(300); // load after the recovery, on purpose
    } finally {
      running = false;
      await load;
      await c?.close();
    }

    // Over the whole run: no 5xx but the 503s asserted above, and no slow answer.
    expect(answers.filter((x) => x.status >= 500 && x.status !== 503)).toEqual([]);
    expect(counts.sessionCalls503).toBeGreaterThan(0);
    const slowest = Math.max(...answers.map((x) => x.ms));
    log(
      `${answers.length} requests (${JSON.stringify(counts)}), slowest ${slowest} ms, total ${Date.now() - t0} ms`,
    );
    expect(slowest).toBeLessThan(ANSWER_BOUND_MS);
  });
});
