import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { CleanupService } from '../../src/shorts/cleanup.service';
import { TagCountCache } from '../../src/shorts/tag-count-cache';
import { useTestApp } from '../support/app';
import { loginAs, type LoggedIn, useLogin } from '../support/login';
import { createShort, insertShort, insertTagRows } from '../support/shorts';

/**
 * The own list's totals with `tag` filters are kept per space and set of tags (TagCountCache):
 * right after every write of a space's tag rows the total is the new one (create, import, PATCH of
 * the tags or the team, bulk edits, deletes by the owner and by an admin, a user's deletion, the
 * cleanup of expired anonymous shorts), while a change the app did not make (rows written in SQL
 * here) is not seen until then: the totals are cached.
 */
describe('tag filter totals (cached per space and tags)', () => {
  const t = useTestApp({ AUTH_DEV_LOGIN: 'true', ADMIN_USERS: 'dev:admin' });
  const alice = useLogin(t, 'alice');
  const admin = useLogin(t, 'admin');
  let team = '';

  beforeAll(async () => {
    const res = await alice.post('/api/teams', { name: 'Zählung' });
    expect(res.status).toBe(201);
    team = ((await res.json()) as { id: string }).id;
  });

  /** A tag no other test uses (the tests share one database). */
  const fresh = (name: string) => `${name}-${randomBytes(3).toString('hex')}`;

  /** The list's total with these tags (offset 0: the count is the total), in a team or own. */
  const total = async (u: LoggedIn, tags: readonly string[], inTeam?: string) => {
    const query = tags.map((tag) => `tag=${encodeURIComponent(tag)}`).join('&');
    const res = await u.fetch(`/api/code?size=1&${query}${inTeam ? `&team=${inTeam}` : ''}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { totalElements: number }).totalElements;
  };
  const ok = async (res: Response, status = 200) => {
    expect(res.status, await res.clone().text()).toBe(status);
    return res;
  };

  it('are cached: a tag row written behind the app’s back shows only after a write of the app', async () => {
    const red = fresh('rot');
    const a = await createShort(alice, { tags: [red] });
    expect(await total(alice, [red])).toBe(1);
    const b = await createShort(alice, {});
    await insertTagRows(t, [[b.id, red.toLowerCase(), red, `u:${alice.userId}`]]);
    expect(await total(alice, [red])).toBe(1); // cached
    await ok(await alice.patch(`/api/code/${a.id}`, { tags: [red, 'x'] }));
    expect(await total(alice, [red])).toBe(2);
  });

  it('a create with tags counts at once', async () => {
    const red = fresh('rot');
    const blue = fresh('blau');
    expect(await total(alice, [red])).toBe(0);
    expect(await total(alice, [red, blue])).toBe(0);
    await createShort(alice, { tags: [red] });
    expect(await total(alice, [red])).toBe(1);
    expect(await total(alice, [red, blue])).toBe(0);
    await createShort(alice, { tags: [blue, red] });
    expect(await total(alice, [red])).toBe(2);
    expect(await total(alice, [blue, red])).toBe(1);
    // A create without tags leaves the counts as they are (and correct).
    await createShort(alice, {});
    expect(await total(alice, [red])).toBe(2);
  });

  it('an import with tags counts at once', async () => {
    const red = fresh('rot');
    expect(await total(alice, [red])).toBe(0);
    const res = await ok(
      await alice.post('/api/code/import', {
        rows: [
          { url: 'https://example.com/i1', tags: [red] },
          { url: 'https://example.com/i2', tags: [red, 'anders'] },
          { url: 'https://example.com/i3' },
        ],
      }),
    );
    expect(((await res.json()) as { created: number }).created).toBe(3);
    expect(await total(alice, [red])).toBe(2);
  });

  it('a PATCH of the tags, and a move to a team and back, count at once in both spaces', async () => {
    const red = fresh('rot');
    const blue = fresh('blau');
    const s = await createShort(alice, { tags: [red] });
    expect(await total(alice, [red])).toBe(1);
    expect(await total(alice, [red, blue])).toBe(0);
    expect(await total(alice, [red], team)).toBe(0);
    await ok(await alice.patch(`/api/code/${s.id}`, { tags: [red, blue] }));
    expect(await total(alice, [red, blue])).toBe(1);
    await ok(await alice.patch(`/api/code/${s.id}`, { tags: [blue] }));
    expect(await total(alice, [red])).toBe(0);
    expect(await total(alice, [red, blue])).toBe(0);
    await ok(await alice.patch(`/api/code/${s.id}`, { team }));
    expect(await total(alice, [blue])).toBe(0);
    expect(await total(alice, [blue], team)).toBe(1);
    await ok(await alice.patch(`/api/code/${s.id}`, { team: null }));
    expect(await total(alice, [blue])).toBe(1);
    expect(await total(alice, [blue], team)).toBe(0);
  });

  it('bulk edits: tags added and taken off, a move to a team and back, a delete', async () => {
    const red = fresh('rot');
    const blue = fresh('blau');
    const shorts = await Promise.all([1, 2, 3].map(() => createShort(alice, { tags: [red] })));
    const ids = shorts.map((s) => s.id);
    const bulk = async (body: Record<string, unknown>) =>
      ok(await alice.post('/api/code/bulk', { ids, ...body }));
    expect(await total(alice, [red])).toBe(3);
    expect(await total(alice, [red, blue])).toBe(0);
    await bulk({ addTags: [blue] });
    expect(await total(alice, [red, blue])).toBe(3);
    expect(await total(alice, [blue])).toBe(3);
    await bulk({ removeTags: [red] });
    expect(await total(alice, [red])).toBe(0);
    expect(await total(alice, [red, blue])).toBe(0);
    // Expiry and limit write no tag rows: the totals stay (and are right).
    await bulk({ set: { maxUses: 5 } });
    expect(await total(alice, [blue])).toBe(3);
    await bulk({ set: { team } });
    expect(await total(alice, [blue])).toBe(0);
    expect(await total(alice, [blue], team)).toBe(3);
    await bulk({ set: { team: null } });
    expect(await total(alice, [blue], team)).toBe(0);
    expect(await total(alice, [blue])).toBe(3);
    await bulk({ delete: true });
    expect(await total(alice, [blue])).toBe(0);
  });

  it('a delete by the owner, and an admin’s edit and delete, count at once', async () => {
    const red = fresh('rot');
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => createShort(alice, { tags: [red] })));
    expect(await total(alice, [red])).toBe(3);
    await ok(await alice.delete(`/api/code/${a.id}`), 204);
    expect(await total(alice, [red])).toBe(2);
    await ok(await admin.put(`/api/admin/entity/shorts/${b.id}`, { tags: 'anders' }));
    expect(await total(alice, [red])).toBe(1);
    await ok(await admin.delete(`/api/admin/entity/shorts/${c.id}`), 204);
    expect(await total(alice, [red])).toBe(0);
  });

  it('a user’s deletion drops the counts of his space', async () => {
    const red = fresh('rot');
    const erin = await loginAs(t, 'erin');
    await createShort(erin, { tags: [red] });
    expect(await total(erin, [red])).toBe(1);
    const cache = t.app.get(TagCountCache);
    let reads = 0;
    const read = async () => (reads++, { count: -1, rarest: red.toLowerCase() });
    // Kept: no read.
    expect(await cache.count(`u:${erin.userId}`, [red.toLowerCase()], read)).toEqual({
      count: 1,
      rarest: red.toLowerCase(),
    });
    expect(reads).toBe(0);
    await ok(await admin.delete(`/api/admin/entity/users/${erin.userId}`), 204);
    await cache.count(`u:${erin.userId}`, [red.toLowerCase()], read);
    expect(reads).toBe(1);
  });

  it('the cleanup of expired anonymous shorts drops the counts of a team one of them was in', async () => {
    await t.app.get(CleanupService).firstRun; // the run shortly after boot is over
    const red = fresh('rot');
    // An anonymous short an admin moved into the team (it keeps no owner), long expired.
    const s = await insertShort(t, {
      ownerId: null,
      teamId: team,
      tags: red,
      expireAt: new Date(Date.now() - 30 * 86_400_000),
      code: `c${randomUUID().replace(/-/g, '').slice(0, 10)}`,
    });
    await insertTagRows(t, [[s.id, red.toLowerCase(), red, `t:${team}`]]);
    expect(await total(alice, [red], team)).toBe(1);
    expect(await t.app.get(CleanupService).run()).toBeGreaterThanOrEqual(1);
    expect(await total(alice, [red], team)).toBe(0);
  });
});
