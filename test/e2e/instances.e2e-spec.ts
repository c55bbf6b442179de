import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BlacklistService } from '../../src/blacklist/blacklist.service';
import { FollowService } from '../../src/follow/follow.service';
import { ShortEntity } from '../../src/shorts/short.entity';
import { type TestApp, useTestApp, useTestDatabase } from '../support/app';
import { TEST_REDIS_URL } from '../support/database';
import { insertShort, createShort } from '../support/shorts';

/** Two instances on one database, with and without Redis for cache invalidation. */
describe('several instances sharing one database', () => {
  const db = useTestDatabase();
  const a = useTestApp(() => ({ ...db.env, REDIS_URL: TEST_REDIS_URL, PASSWORD_MAX_TRIES: '3' }));
  const b = useTestApp(() => ({ ...db.env, REDIS_URL: TEST_REDIS_URL, PASSWORD_MAX_TRIES: '3' }));

  /** Where a follow of `code` on instance `t` goes. */
  const locationOn = async (t: TestApp, code: string) =>
    (await t.fetch(`/s/${code}`)).headers.get('location');

  it('a short created on one instance is followed on the other', async () => {
    const { code } = await createShort(a, { url: 'https://example.com/shared' });
    expect(await locationOn(b, code)).toBe('https://example.com/shared');
  });

  it('a change on one instance reaches the follow cache of the other at once (Redis pub/sub)', async () => {
    const { code } = await createShort(a, { url: 'https://example.com/flag-me' });
    // B caches the short by following it.
    expect(await locationOn(b, code)).toBe('https://example.com/flag-me');
    // A flags it dangerous (as moderation does) and invalidates.
    await a.ds.getRepository(ShortEntity).update({ code }, { dangerous: true });
    a.app.get(FollowService).invalidate(code);
    await expect
      .poll(() => locationOn(b, code), { timeout: 5000, interval: 50 })
      .toBe(`/s/${code}/potentially-dangerous`);
  });

  it('without the invalidation the other instance would still serve its cached entry (control)', async () => {
    // Inserted, not created: a create's own invalidation may reach B after B cached the short
    // (Redis pub/sub is asynchronous) and would make this control pass or fail by timing.
    const { code } = await insertShort(a, { url: 'https://example.com/stale' });
    expect(await locationOn(b, code)).toBe('https://example.com/stale');
    await a.ds.getRepository(ShortEntity).update({ code }, { dangerous: true });
    // No invalidate(): B's cache still answers with the target.
    expect(await locationOn(b, code)).toBe('https://example.com/stale');
    a.app.get(FollowService).invalidate(code);
  });

  it('a blacklist entry added on one instance blocks follows on the other at once', async () => {
    const { code } = await createShort(a, { url: 'https://spread.example/x' });
    expect(await locationOn(b, code)).toBe('https://spread.example/x');
    await a.app.get(BlacklistService).add('host', `spread.example`, null, randomUUID());
    await expect
      .poll(() => locationOn(b, code), { timeout: 5000, interval: 50 })
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
