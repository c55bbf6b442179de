import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ShortDto } from '../../src/shorts/dto/short.dto';
import { useTestApp, useTestDatabase } from '../support/app';
import { TEST_REDIS_URL } from '../support/database';
import { loginAs, type LoggedIn, useLogin } from '../support/login';
import { expectProblem } from '../support/problem';
import { createShort } from '../support/shorts';

type ShortBody = ShortDto;

const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

describe('editing a short (PATCH /api/code/{id})', () => {
  const t = useTestApp({ AUTH_DEV_LOGIN: 'true', ADMIN_USERS: 'dev:admin' });
  const alice = useLogin(t, 'alice');
  const bob = useLogin(t, 'bob');
  const admin = useLogin(t, 'admin');

  const createOwn = async (u: LoggedIn, body: Record<string, unknown> = {}) =>
    (await createShort(u, { url: 'https://example.com/start', ...body })).short;
  const location = async (path: string) => (await t.fetch(path)).headers.get('location');
  const edit = async (u: LoggedIn, id: string, body: Record<string, unknown>) => {
    const res = await u.patch(`/api/code/${id}`, body);
    return { res, body: res.status === 200 ? ((await res.json()) as ShortBody) : null };
  };

  it('re-targets a short: the next follow (after a cached one) goes to the new url', async () => {
    const s = await createOwn(alice);
    expect(await location(`/s/${s.code}`)).toBe('https://example.com/start'); // now cached
    const r = await edit(alice, s.id, { url: 'https://example.org/fixed' });
    expect(r.res.status).toBe(200);
    expect(r.body).toMatchObject({ id: s.id, code: s.code, url: 'https://example.org/fixed' });
    expect(await location(`/s/${s.code}`)).toBe('https://example.org/fixed');
  });

  it('changes name, expiry and limit, and clears them with null', async () => {
    const s = await createOwn(alice);
    const expireAt = inDays(10);
    const set = await edit(alice, s.id, { name: 'Neu', expireAt, maxUses: 7 });
    expect(set.body).toMatchObject({ name: 'Neu', expireAt, maxUses: 7 });
    const cleared = await edit(alice, s.id, { name: null, expireAt: null, maxUses: null });
    expect(cleared.body).toMatchObject({ name: null, expireAt: null, maxUses: null });
    const rows = await t.query('SELECT name, expire_at, max_uses FROM shorts WHERE id = ?', [s.id]);
    expect(rows[0]).toMatchObject({ name: null, expire_at: null, max_uses: null });
  });

  it('a new code frees the old one: the old code is unknown and can be taken again', async () => {
    const s = await createOwn(alice, { code: `old-${randomUUID().slice(0, 8)}` });
    expect(await location(`/s/${s.code}`)).toBe('https://example.com/start');
    const newCode = `new-${randomUUID().slice(0, 8)}`;
    const r = await edit(alice, s.id, { code: newCode });
    expect(r.body?.code).toBe(newCode);
    expect(await location(`/s/${newCode}`)).toBe('https://example.com/start');
    expect(await location(`/s/${s.code}`)).toBe(`/s/${s.code}/not-found`);
    const again = await bob.post('/api/code', { url: 'https://example.com/b', code: s.code });
    expect(again.status).toBe(201);
  });

  it('sets a password (the old one stops working) and removes it again', async () => {
    const s = await createOwn(alice, { password: 'first-password' });
    const ok = (pw: string) =>
      t.fetch(`/api/code/${s.code}?redirect=false&password=${encodeURIComponent(pw)}`);
    expect((await ok('first-password')).status).toBe(200);
    const changed = await edit(alice, s.id, { password: 'second-password' });
    expect(changed.body?.hasPassword).toBe(true);
    await expectProblem(await ok('first-password'), 403);
    expect((await ok('second-password')).status).toBe(200);
    expect(await location(`/s/${s.code}?password=first-password`)).toBe(
      `/s/${s.code}/password-required?wrong=true`,
    );
    const removed = await edit(alice, s.id, { password: null });
    expect(removed.body?.hasPassword).toBe(false);
    expect(await location(`/s/${s.code}`)).toBe('https://example.com/start');
    const rows = await t.query('SELECT password_hash FROM shorts WHERE id = ?', [s.id]);
    expect(rows[0].password_hash).toBeNull();
  });

  it('refuses each field by the create rules with the same messages, and changes nothing', async () => {
    const s = await createOwn(alice, { name: 'Bleibt' });
    const taken = await createOwn(alice, { code: `taken-${randomUUID().slice(0, 8)}` });
    const cases: Array<[Record<string, unknown>, number, string | RegExp]> = [
      [{ code: taken.code }, 409, 'Code already exists'],
      [{ maxUses: 0 }, 400, 'Uses must be greater than 0'],
      [
        { expireAt: new Date(Date.now() - 60_000).toISOString() },
        400,
        'Expire At must be in the future',
      ],
      [{ url: 'javascript:alert(1)' }, 400, /url/i],
      [{ url: 'not a url' }, 400, /url/i],
      [{ code: 'export' }, 400, /code/i],
      [{ code: 'a b' }, 400, /code/i],
      [{ url: null }, 400, /url/i],
      [{ maxUses: 'many' }, 400, /maxUses/i],
      [{ colour: 'red' }, 400, /colour/i],
    ];
    for (const [body, status, detail] of cases) {
      const res = await alice.patch(`/api/code/${s.id}`, body);
      const problem = await expectProblem(res, status);
      const text = `${problem.detail} ${JSON.stringify(problem.fieldErrors ?? {})}`;
      if (typeof detail === 'string') expect(problem.detail, JSON.stringify(body)).toBe(detail);
      else expect(text, JSON.stringify(body)).toMatch(detail);
    }
    const after = (await (
      await alice.fetch(`/api/code/${s.code}?redirect=false`)
    ).json()) as ShortBody;
    expect(after).toMatchObject({ code: s.code, name: 'Bleibt', url: 'https://example.com/start' });
  });

  it('re-checks the blacklist on a new url', async () => {
    const entry = await admin.put(`/api/admin/entity/blacklist/${randomUUID()}`, {
      kind: 'host',
      value: 'blocked-on-edit.example',
      reason: null,
    });
    expect(entry.status).toBe(201);
    const s = await createOwn(alice);
    const res = await alice.patch(`/api/code/${s.id}`, {
      url: 'https://blocked-on-edit.example/x',
    });
    expect((await expectProblem(res, 400)).detail).toBe('URL is blacklisted');
    expect(await location(`/s/${s.code}`)).toBe('https://example.com/start');
  });

  it('two concurrent edits to the same new code: one wins, the other gets 409', async () => {
    const a = await createOwn(alice);
    const b = await createOwn(alice);
    const code = `race-${randomUUID().slice(0, 8)}`;
    const [ra, rb] = await Promise.all([
      alice.patch(`/api/code/${a.id}`, { code }),
      alice.patch(`/api/code/${b.id}`, { code }),
    ]);
    expect([ra.status, rb.status].sort()).toEqual([200, 409]);
    const loser = ra.status === 409 ? ra : rb;
    expect((await expectProblem(loser, 409)).detail).toBe('Code already exists');
    const rows = await t.query('SELECT id FROM shorts WHERE code = ?', [code]);
    expect(rows).toHaveLength(1);
  });

  it('rights: another user 403, anonymous 401, an admin may, unknown 404', async () => {
    const s = await createOwn(alice);
    await expectProblem(await bob.patch(`/api/code/${s.id}`, { name: 'bob' }), 403);
    const anon = await t.fetch(`/api/code/${s.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', origin: t.url },
      body: JSON.stringify({ name: 'anon' }),
    });
    await expectProblem(anon, 401);
    const byAdmin = await edit(admin, s.id, { name: 'vom Admin' });
    expect(byAdmin.body?.name).toBe('vom Admin');
    await expectProblem(await alice.patch(`/api/code/${randomUUID()}`, { name: 'x' }), 404);
    // An anonymous short: admins only.
    const anonCreate = await t.post('/api/code', { url: 'https://example.com/anon' });
    const { code } = (await anonCreate.json()) as { code: string };
    const info = (await (await t.fetch(`/api/code/${code}?redirect=false`)).json()) as ShortBody;
    await expectProblem(await alice.patch(`/api/code/${info.id}`, { name: 'mine?' }), 403);
    expect((await edit(admin, info.id, { url: 'https://example.com/moderated' })).res.status).toBe(
      200,
    );
  });

  it('refuses a cross-site edit', async () => {
    const s = await createOwn(alice);
    const res = await alice
      .from('https://evil.example')
      .patch(`/api/code/${s.id}`, { url: 'https://evil.example/' });
    expect(res.status).toBe(403);
    expect(await location(`/s/${s.code}`)).toBe('https://example.com/start');
  });

  it('a flagged short stays flagged when its url changes', async () => {
    const s = await createOwn(alice);
    await t.query('UPDATE shorts SET dangerous = 1 WHERE id = ?', [s.id]);
    const r = await edit(alice, s.id, { url: 'https://example.org/other' });
    expect(r.res.status).toBe(200);
    expect(await location(`/s/${s.code}`)).toBe(`/s/${s.code}/potentially-dangerous`);
  });
});

describe('an edit on one instance reaches the other instance (one database, Redis)', () => {
  const db = useTestDatabase();
  const a = useTestApp(() => ({ ...db.env, REDIS_URL: TEST_REDIS_URL, AUTH_DEV_LOGIN: 'true' }));
  const b = useTestApp(() => ({ ...db.env, REDIS_URL: TEST_REDIS_URL, AUTH_DEV_LOGIN: 'true' }));

  it('the other instance follows to the new url right after the answer', async () => {
    const alice = await loginAs(a, 'alice');
    const { code, id } = await createShort(alice, { url: 'https://example.com/before' });
    expect((await b.fetch(`/s/${code}`)).headers.get('location')).toBe(
      'https://example.com/before',
    );
    const started = Date.now();
    expect(
      (await alice.patch(`/api/code/${id}`, { url: 'https://example.com/after' })).status,
    ).toBe(200);
    await expect
      .poll(async () => (await b.fetch(`/s/${code}`)).headers.get('location'), {
        timeout: 1000,
        interval: 10,
      })
      .toBe('https://example.com/after');
    console.log(`edit propagation to the other instance: ${Date.now() - started} ms`);
  });
});
