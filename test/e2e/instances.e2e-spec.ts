import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlacklistService } from '../../src/blacklist/blacklist.service';
import { FollowService } from '../../src/follow/follow.service';
import { ShortEntity } from '../../src/shorts/short.entity';
import { createTestApp, type TestApp } from '../support/app';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { insertShort } from '../support/shorts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Two instances on one database, with and without Redis for cache invalidation. */
describe('several instances sharing one database', () => {
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    db = await createTestDatabase();
    a = await createTestApp({ ...db.env, REDIS_URL, PASSWORD_MAX_TRIES: '3' });
    b = await createTestApp({ ...db.env, REDIS_URL, PASSWORD_MAX_TRIES: '3' });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  async function createOn(t: TestApp, url: string): Promise<string> {
    const res = await t.post('/api/code', { url });
    expect(res.status).toBe(201);
    return ((await res.json()) as { code: string }).code;
  }

  it('a short created on one instance is followed on the other', async () => {
    const code = await createOn(a, 'https://example.com/shared');
    expect((await b.fetch(`/s/${code}`)).headers.get('location')).toBe(
      'https://example.com/shared',
    );
  });

  it('a change on one instance reaches the follow cache of the other at once (Redis pub/sub)', async () => {
    const code = await createOn(a, 'https://example.com/flag-me');
    // B caches the short by following it.
    expect((await b.fetch(`/s/${code}`)).headers.get('location')).toBe(
      'https://example.com/flag-me',
    );
    // A flags it dangerous (as moderation does) and invalidates.
    await a.ds.getRepository(ShortEntity).update({ code }, { dangerous: true });
    a.app.get(FollowService).invalidate(code);
    await expect
      .poll(async () => (await b.fetch(`/s/${code}`)).headers.get('location'), {
        timeout: 5000,
        interval: 50,
      })
      .toBe(`/s/${code}/potentially-dangerous`);
  });

  it('without the invalidation the other instance would still serve its cached entry (control)', async () => {
    // Inserted, not created: a create's own invalidation may reach B after B cached the short
    // (Redis pub/sub is asynchronous) and would make this control pass or fail by timing.
    const { code } = await insertShort(a, { url: 'https://example.com/stale' });
    expect((await b.fetch(`/s/${code}`)).headers.get('location')).toBe('https://example.com/stale');
    await a.ds.getRepository(ShortEntity).update({ code }, { dangerous: true });
    // No invalidate(): B's cache still answers with the target.
    expect((await b.fetch(`/s/${code}`)).headers.get('location')).toBe('https://example.com/stale');
    a.app.get(FollowService).invalidate(code);
  });

  it('a blacklist entry added on one instance blocks follows on the other at once', async () => {
    const code = await createOn(a, 'https://spread.example/x');
    expect((await b.fetch(`/s/${code}`)).headers.get('location')).toBe('https://spread.example/x');
    await a.app.get(BlacklistService).add('host', `spread.example`, null, randomUUID());
    await expect
      .poll(async () => (await b.fetch(`/s/${code}`)).headers.get('location'), {
        timeout: 5000,
        interval: 50,
      })
      .toBe(`/s/${code}/potentially-dangerous`);
  });

  it('wrong passwords are counted across instances (Redis): a client locked on one is locked on the other', async () => {
    const res = await a.post('/api/code', {
      url: 'https://example.com/pw-shared',
      password: 'right-one',
    });
    const { code } = (await res.json()) as { code: string };
    const loc = async (t: TestApp, pw: string) =>
      (await t.fetch(`/s/${code}?password=${pw}`)).headers.get('location');
    expect(await loc(a, 'bad1')).toBe(`/s/${code}/password-required?wrong=true`);
    expect(await loc(b, 'bad2')).toBe(`/s/${code}/password-required?wrong=true`);
    expect(await loc(a, 'bad3')).toBe(`/s/${code}/password-required?wrong=true`);
    // Three failures in total over both instances: locked everywhere, even for the right password.
    expect(await loc(b, 'right-one')).toBe(`/s/${code}/password-required?locked=true`);
    expect(await loc(a, 'right-one')).toBe(`/s/${code}/password-required?locked=true`);
  });
});
