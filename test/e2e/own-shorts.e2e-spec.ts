import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '../../src/common/paging';
import { FollowService } from '../../src/follow/follow.service';
import type { ShortDto } from '../../src/shorts/dto/short.dto';
import { ShortEntity } from '../../src/shorts/short.entity';
import { useTestApp } from '../support/app';
import { loginAs, type LoggedIn, useLogin } from '../support/login';
import { pause } from '../support/wait';

type ShortRow = ShortDto;

describe('logged-in shorts: create options, own list, delete, cross-user', () => {
  const t = useTestApp({ AUTH_DEV_LOGIN: 'true' });
  const alice = useLogin(t, 'alice');
  const bob = useLogin(t, 'bob');

  const create = async (u: LoggedIn, body: Record<string, unknown>) => {
    const res = await u.post('/api/code', body);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const list = async (u: LoggedIn, query = '') => {
    const res = await u.fetch(`/api/code${query}`);
    return {
      status: res.status,
      body: (await res.json()) as Page<ShortRow> & { detail?: string },
    };
  };

  it('creates with code, name, expireAt and maxUses; no 24 h limit', async () => {
    const expireAt = new Date(Date.now() + 30 * 86400_000).toISOString();
    const r = await create(alice, {
      url: 'https://example.com/full',
      code: 'alice-full',
      name: 'Full',
      expireAt,
      maxUses: 5,
    });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      code: 'alice-full',
      shortUrl: expect.stringMatching(/^https?:\/\/[^/]+\/s\/alice-full$/),
    });
    const info = (await (await t.fetch('/api/code/alice-full?redirect=false')).json()) as ShortRow;
    expect(info).toMatchObject({
      name: 'Full',
      maxUses: 5,
      expireAt,
      owner: { username: 'alice' },
    });
    // without expireAt a logged-in short never expires
    const forever = await create(alice, { url: 'https://example.com/forever' });
    expect(forever.status).toBe(201);
    const rows = await t.query('SELECT expire_at FROM shorts WHERE code = ?', [forever.body.code]);
    expect(rows[0].expire_at).toBeNull();
  });

  it('a short says the link to share; its owner sees uses and visits apart, others neither', async () => {
    expect(
      (await create(alice, { url: 'https://example.com/link', code: 'alice-link' })).status,
    ).toBe(201);
    for (let i = 0; i < 2; i++) await t.fetch('/s/alice-link');
    await t.app.get(FollowService).flushUses();
    const info = (await (await t.fetch('/api/code/alice-link?redirect=false')).json()) as Record<
      string,
      unknown
    >;
    expect(info.shortUrl).toBe(`${t.config.baseUrl}/s/alice-link`);
    expect(info).not.toHaveProperty('uses');
    expect(info).not.toHaveProperty('visits');
    const ownInfo = (await (
      await alice.fetch('/api/code/alice-link?redirect=false')
    ).json()) as Record<string, unknown>;
    expect(ownInfo).toMatchObject({ uses: 2 });
    expect(typeof ownInfo.visits).toBe('number');
    // A refusal at the boundary names its key too (a name over the table's maxLength).
    const long = await alice.post('/api/code', {
      url: 'https://example.com/n',
      name: 'x'.repeat(101),
    });
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ fieldErrorKeys: { name: 'name_too_long' } });
    const row = (await list(alice, '?search=alice-link')).body.content[0] as unknown as Record<
      string,
      unknown
    >;
    expect(row).toMatchObject({ shortUrl: `${t.config.baseUrl}/s/alice-link`, uses: 2 });
    expect(typeof row.visits).toBe('number');
  });

  it('each create error answers its detail', async () => {
    const taken = await create(bob, { url: 'https://example.com/b', code: 'alice-full' });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({
      detail: 'Code already exists',
      error: 'Code already exists',
    });
    const uses = await create(alice, { url: 'https://example.com/u', maxUses: 0 });
    expect(uses.status).toBe(400);
    expect(uses.body.detail).toBe('Uses must be greater than 0');
    const past = await create(alice, {
      url: 'https://example.com/p',
      expireAt: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(past.status).toBe(400);
    expect(past.body.detail).toBe('Expire At must be in the future');
  });

  it('50 concurrent creates of the same custom code: one 201, 49 × 409, no 500', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 ? alice : bob).post('/api/code', {
          url: `https://example.com/race/${i}`,
          code: 'race-code',
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const rows = await t.query('SELECT COUNT(*) AS n FROM shorts WHERE code = ?', ['race-code']);
    expect(Number(rows[0].n)).toBe(1);
  });

  describe('own list', () => {
    let carol: LoggedIn;
    const codes: string[] = [];
    beforeAll(async () => {
      carol = await loginAs(t, 'carol');
      for (let i = 0; i < 7; i++) {
        const r = await create(carol, {
          url: `https://example.com/page/${i}`,
          code: `carol-${i}`,
          name: i === 3 ? 'Spe%cial_name' : `Link ${i}`,
          password: i === 4 ? 'secret' : undefined,
        });
        expect(r.status).toBe(201);
        codes.push(String(r.body.code));
        await pause(5); // distinct createdAt (time passes on purpose)
      }
      // one expired and one exhausted short stay visible to the owner
      await t.ds
        .getRepository(ShortEntity)
        .update({ code: 'carol-5' }, { expireAt: new Date(Date.now() - 1000) });
      await t.query('UPDATE shorts SET max_uses = 1, uses = 1 WHERE code = ?', ['carol-6']);
    });

    it('needs a login', async () => {
      const res = await t.fetch('/api/code');
      expect(res.status).toBe(401);
    });

    it('default: newest first, page object, expired/exhausted included, url of protected shorts shown', async () => {
      const { status, body } = await list(carol);
      expect(status).toBe(200);
      expect(body.content.map((s) => s.code)).toEqual([...codes].reverse());
      expect(body).toMatchObject({
        number: 0,
        size: 20,
        numberOfElements: 7,
        totalElements: 7,
        totalPages: 1,
        first: true,
        last: true,
        empty: false,
      });
      const protectedRow = body.content.find((s) => s.code === 'carol-4')!;
      expect(protectedRow.hasPassword).toBe(true);
      expect(protectedRow.url).toBe('https://example.com/page/4');
      expect(body.content.every((s) => s.dangers === false)).toBe(true);
      expect(body.content[0].owner?.username).toBe('carol');
    });

    it('paging and repeated sort', async () => {
      const p1 = await list(carol, '?page=1&size=3&sort=code,asc');
      expect(p1.body.content.map((s) => s.code)).toEqual(['carol-3', 'carol-4', 'carol-5']);
      expect(p1.body).toMatchObject({
        number: 1,
        size: 3,
        totalElements: 7,
        totalPages: 3,
        first: false,
        last: false,
      });
      const last = await list(carol, '?page=2&size=3&sort=code,asc');
      expect(last.body.content.map((s) => s.code)).toEqual(['carol-6']);
      expect(last.body.last).toBe(true);
      const multi = await list(carol, '?sort=hasPassword,asc');
      expect(multi.status).toBe(400);
      const two = await list(carol, '?sort=name,desc&sort=code,asc');
      expect(two.status).toBe(200);
      expect(two.body.content[0].name).toBe('Spe%cial_name');
      // By the id itself, both ways (the tie-break by id must not turn a descending sort around).
      const idsBy = async (q: string) => (await list(carol, q)).body.content.map((s) => s.id);
      const ids = await idsBy('?sort=id,asc');
      expect(ids).toHaveLength(7);
      expect(ids).toEqual([...ids].sort());
      expect(await idsBy('?sort=id,desc')).toEqual([...ids].reverse());
      const beyond = await list(carol, '?page=9');
      expect(beyond.body).toMatchObject({ empty: true, numberOfElements: 0, totalElements: 7 });
      expect((await list(carol, '?size=1000')).body.size).toBe(250);
    });

    it('unknown sort field or bad paging → 400', async () => {
      for (const q of [
        '?sort=password_hash,asc',
        '?sort=code,sideways',
        '?page=-1',
        '?size=0',
        '?page=x',
      ]) {
        const r = await list(carol, q);
        expect(r.status, q).toBe(400);
        expect(r.body.detail).toBeTruthy();
      }
    });

    it('search over code, name and url, with LIKE wildcards taken literally', async () => {
      expect((await list(carol, '?search=CAROL-2')).body.content.map((s) => s.code)).toEqual([
        'carol-2',
      ]);
      expect((await list(carol, '?search=link%202')).body.content.map((s) => s.code)).toEqual([
        'carol-2',
      ]);
      expect((await list(carol, '?search=page/6')).body.content.map((s) => s.code)).toEqual([
        'carol-6',
      ]);
      expect(
        (await list(carol, `?search=${encodeURIComponent('%')}`)).body.content.map((s) => s.code),
      ).toEqual(['carol-3']);
      expect((await list(carol, '?search=_')).body.content.map((s) => s.code)).toEqual(['carol-3']);
      expect((await list(carol, '?search=nothing-like-this')).body.empty).toBe(true);
    });

    it('cross-user: B cannot list, delete or read the protected details of A’s shorts', async () => {
      const bobList = await list(bob);
      expect(bobList.body.content.some((s) => s.code.startsWith('carol-'))).toBe(false);
      const row = (await list(carol, '?search=carol-4')).body.content[0];
      const del = await bob.delete(`/api/code/${row.id}`);
      expect(del.status).toBe(403);
      const info = (await (await bob.fetch('/api/code/carol-4?redirect=false')).json()) as ShortRow;
      expect(info.hasPassword).toBe(true);
      expect(info.url).toBeNull();
      const ownerInfo = (await (
        await carol.fetch('/api/code/carol-4?redirect=false')
      ).json()) as ShortRow;
      expect(ownerInfo.url).toBe('https://example.com/page/4');
      const anon = (await (await t.fetch('/api/code/carol-4?redirect=false')).json()) as ShortRow;
      expect(anon.url).toBeNull();
      expect((await list(carol, '?search=carol-4')).body.totalElements).toBe(1);
    });

    it('the owner deletes their short', async () => {
      const row = (await list(carol, '?search=carol-0')).body.content[0];
      const del = await carol.delete(`/api/code/${row.id}`);
      expect(del.status).toBe(204);
      expect((await list(carol, '?search=carol-0')).body.empty).toBe(true);
      expect((await t.fetch('/api/code/carol-0?redirect=false')).status).toBe(404);
    });
  });
});
