import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { SessionService } from '../../src/session/session.service';
import { SessionEntity } from '../../src/session/session.entity';
import { createTestApp, type TestApp, useTestApp } from '../support/app';
import { createTestDatabase } from '../support/database';
import { loginAs, sessionCookieFrom } from '../support/login';

/** The session id inside a signed cookie value (`s:{sid}.{signature}`). */
function sidOf(cookie: string): string {
  const value = decodeURIComponent(cookie.split('=')[1]);
  return value.slice(2, value.lastIndexOf('.'));
}

describe('sessions in the database', () => {
  const t = useTestApp({
    AUTH_DEV_LOGIN: 'true',
    SESSION_IDLE_TIMEOUT: '3600',
    SESSION_MAX_AGE: '7200',
  });

  it('stores the session server-side; the cookie holds only the signed id', async () => {
    const u = await loginAs(t, 'alice');
    const row = await t.ds.getRepository(SessionEntity).findOneBy({ sid: sidOf(u.cookie) });
    expect(row).not.toBeNull();
    expect(JSON.parse(row!.data).auth.userId).toBe(u.userId);
    // the cookie lives for the idle timeout
    const res = await t.fetch('/api/auth/dev?username=alice');
    const raw = res.headers.getSetCookie().find((c) => c.startsWith('url_shorter_session='))!;
    const expires = Date.parse(/Expires=([^;]+)/i.exec(raw)![1]);
    expect(expires - Date.now()).toBeGreaterThan(3500_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(3600_000);
  });

  it('a tampered cookie signature is not accepted', async () => {
    const u = await loginAs(t, 'bob');
    const forged = u.cookie.slice(0, -3) + (u.cookie.endsWith('abc') ? 'xyz' : 'abc');
    expect((await t.fetch('/api/account', { headers: { cookie: forged } })).status).toBe(401);
  });

  it('idle timeout: a session past its expiry is not accepted and is pruned', async () => {
    const u = await loginAs(t, 'carol');
    const repo = t.ds.getRepository(SessionEntity);
    await repo.update({ sid: sidOf(u.cookie) }, { expiresAt: new Date(Date.now() - 1000) });
    expect((await t.fetch('/api/account', { headers: { cookie: u.cookie } })).status).toBe(401);
    const removed = await t.app.get(SessionService).prune();
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await repo.findOneBy({ sid: sidOf(u.cookie) })).toBeNull();
  });

  it('the scheduled prune runs on one instance per interval when several share the database', async () => {
    const db = await createTestDatabase();
    const apps = [await createTestApp(db.env), await createTestApp(db.env)];
    try {
      const ran: boolean[][] = [[], []];
      for (let round = 0; round < 3; round++) {
        const r = await Promise.all(apps.map((a) => a.app.get(SessionService).scheduledPrune()));
        r.forEach((x, i) => ran[i].push(x));
      }
      // The first instance to take the lease keeps the job for the interval; the other never runs it.
      expect(ran.map((r) => r.some(Boolean)).sort()).toEqual([false, true]);
      expect(ran.find((r) => r.some(Boolean))).toEqual([true, true, true]);
    } finally {
      for (const a of apps) await a.close();
      await db.drop();
    }
  });

  it('absolute timeout: a session older than SESSION_MAX_AGE ends even while active', async () => {
    const u = await loginAs(t, 'dave');
    // express-session may send the login's answer before its store write ends (the body goes out
    // first): a request that reads the session back lets that write land before the row is changed.
    expect((await t.fetch('/api/account', { headers: { cookie: u.cookie } })).status).toBe(200);
    const repo = t.ds.getRepository(SessionEntity);
    const row = (await repo.findOneBy({ sid: sidOf(u.cookie) }))!;
    const data = JSON.parse(row.data);
    data.auth.loginAt = Date.now() - 7201_000;
    await repo.update({ sid: row.sid }, { data: JSON.stringify(data) });
    expect((await t.fetch('/api/account', { headers: { cookie: u.cookie } })).status).toBe(401);
    expect(await repo.findOneBy({ sid: row.sid })).toBeNull();
  });

  it('a deleted user’s session ends', async () => {
    const u = await loginAs(t, 'erin');
    await t.query('DELETE FROM users WHERE id = ?', [u.userId]);
    expect((await t.fetch('/api/account', { headers: { cookie: u.cookie } })).status).toBe(401);
  });

  it('anonymous API calls create no session rows', async () => {
    const before = Number((await t.query('SELECT COUNT(*) AS n FROM sessions'))[0].n);
    await t.fetch('/api/logged-in');
    await t.post('/api/code', { url: 'https://example.com/anon' });
    const after = Number((await t.query('SELECT COUNT(*) AS n FROM sessions'))[0].n);
    expect(after).toBe(before);
  });
});

describe('Secure cookie when BASE_URL is https', () => {
  it('sets Secure behind a TLS-terminating proxy', async () => {
    const t = await createTestApp({ AUTH_DEV_LOGIN: 'true', BASE_URL: 'https://short.example' });
    try {
      const res = await t.fetch('/api/auth/dev?username=sec', {
        headers: { 'x-forwarded-proto': 'https' },
      });
      const raw = res.headers.getSetCookie().find((c) => c.startsWith('url_shorter_session='))!;
      expect(raw).toMatch(/;\s*Secure/i);
      expect(raw).toMatch(/HttpOnly/i);
      expect(raw).toMatch(/SameSite=Lax/i);
      // same-origin means BASE_URL's origin here
      const cookie = sessionCookieFrom(res)!;
      const ok = await t.fetch('/api/self/apikey', {
        method: 'PUT',
        headers: { cookie, origin: 'https://short.example' },
      });
      expect(ok.status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('sessions in Redis (REDIS_URL)', () => {
  let t: TestApp;
  let redis: Redis;
  beforeAll(async () => {
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    await redis.ping();
    t = await createTestApp({ AUTH_DEV_LOGIN: 'true', REDIS_URL });
  });
  afterAll(async () => {
    await t?.close();
    await redis?.quit();
  });

  it('uses the Redis store: login, key with TTL, logout removes it; no database rows', async () => {
    expect(t.app.get(SessionService).kind).toBe('redis');
    const u = await loginAs(t, 'rita');
    const key = `url-shorter:sess:${sidOf(u.cookie)}`;
    const stored = await redis.get(key);
    expect(JSON.parse(stored!).auth.userId).toBe(u.userId);
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(Number((await t.query('SELECT COUNT(*) AS n FROM sessions'))[0].n)).toBe(0);
    expect((await u.fetch('/api/account')).status).toBe(200);
    expect((await u.fetch('/api/logout', { method: 'POST' })).status).toBe(204);
    expect(await redis.exists(key)).toBe(0);
    expect((await t.fetch('/api/account', { headers: { cookie: u.cookie } })).status).toBe(401);
  });

  it('session id changes at login with Redis too', async () => {
    const pre = await t.fetch('/api/auth/dev?username=rob&redirect=/x');
    const c1 = sessionCookieFrom(pre)!;
    const again = await t.fetch('/api/auth/dev?username=rob', { headers: { cookie: c1 } });
    const c2 = sessionCookieFrom(again)!;
    expect(c2).not.toBe(c1);
    expect(await redis.exists(`url-shorter:sess:${sidOf(c1)}`)).toBe(0);
  });
});
