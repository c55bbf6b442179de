import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ShortChangeHub } from '../../src/shorts/short-change-hub';
import {
  DEFAULT_WEBHOOK_OPTIONS,
  WEBHOOK_OPTIONS,
  WebhookDeliveryJob,
} from '../../src/webhooks/webhook-delivery.job';
import { useTestApp } from '../support/app';
import { useBeforeAll } from '../support/hooks';
import { type LoggedIn, useLogin } from '../support/login';
import { expectProblem } from '../support/problem';
import { createShort, insertShorts } from '../support/shorts';

/**
 * Bulk edits (CONTRACT "Tags and bulk edits": `POST /api/code/bulk`): expiry, limit, team and tags
 * of many shorts at once, or their deletion; all or nothing, every id the caller's to write.
 */

interface Problem {
  status: number;
  errorKey: string;
  detail: string;
  ids?: string[];
  fieldErrors?: Record<string, string>;
  fieldErrorKeys?: Record<string, string>;
}

interface Received {
  type: string;
  data: Record<string, unknown>;
}

/** A loopback webhook receiver (one endpoint), verifying each delivery's signature. */
function useReceiver() {
  return useBeforeAll(
    'the webhook receiver',
    async () => {
      const received: Received[] = [];
      const state = { secret: '' };
      const server: Server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          new Webhook(state.secret).verify(raw, req.headers as Record<string, string>);
          received.push(JSON.parse(raw) as Received);
          res.writeHead(200).end();
        });
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      const port = (server.address() as { port: number }).port;
      return { server, received, state, url: `http://127.0.0.1:${port}/hook` };
    },
    async ({ server }) => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  );
}

const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

describe('bulk edits (POST /api/code/bulk)', () => {
  const rx = useReceiver();
  const t = useTestApp(
    {
      AUTH_DEV_LOGIN: 'true',
      ADMIN_USERS: 'dev:admin',
      METADATA_ALLOW_LOOPBACK: 'true',
      // The limit has its own block below; here many bulks of one user follow each other.
      LIMIT_BULK: 'off',
    },
    {
      overrides: [
        {
          provide: WEBHOOK_OPTIONS,
          useValue: { ...DEFAULT_WEBHOOK_OPTIONS, timeoutMs: 1000, pollMs: 3_600_000 },
        },
      ],
    },
  );
  const alice = useLogin(t, 'alice');
  const bob = useLogin(t, 'bob');
  const vera = useLogin(t, 'vera');
  const admin = useLogin(t, 'admin');
  /** A team of alice (owner) with vera as viewer and bob as editor. */
  let team = '';

  beforeAll(async () => {
    const res = await alice.post('/api/teams', { name: 'Marketing' });
    expect(res.status).toBe(201);
    team = ((await res.json()) as { id: string }).id;
    for (const [u, role] of [
      [vera, 'viewer'],
      [bob, 'editor'],
    ] as const) {
      const invite = await alice.post(`/api/teams/${team}/invites`, { role });
      const { token } = (await invite.json()) as { token: string };
      expect((await u.post(`/api/invites/${token}`, {})).status).toBe(200);
    }
  });

  afterEach(() => vi.restoreAllMocks());

  const bulk = (u: LoggedIn, body: Record<string, unknown>) => u.post('/api/code/bulk', body);
  const ok = async (u: LoggedIn, body: Record<string, unknown>) => {
    const res = await bulk(u, body);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as { changed: string[]; deleted: string[] };
  };
  const refused = async (res: Response, status: number) =>
    (await expectProblem(res, status)) as unknown as Problem;
  const own = async (u: LoggedIn, n: number, body: Record<string, unknown> = {}) => {
    const list = [];
    for (let i = 0; i < n; i++) list.push(await createShort(u, body));
    return list;
  };
  const row = async (id: string) =>
    (
      await t.query<Array<Record<string, unknown>>>(
        'SELECT id, expire_at, max_uses, team_id, owner_id, tags FROM shorts WHERE id = ?',
        [id],
      )
    )[0];
  const tagRows = (id: string) =>
    t.query<Array<{ tag: string; label: string; space: string }>>(
      'SELECT tag, label, space FROM short_tags WHERE short_id = ? ORDER BY tag',
      [id],
    );
  const info = async (u: LoggedIn, code: string) =>
    (await (await u.fetch(`/api/code/${code}?redirect=false`)).json()) as Record<string, unknown>;

  it('sets expiry and limit on every short, and clears them with null', async () => {
    const shorts = await own(alice, 3);
    const ids = shorts.map((s) => s.id);
    const expireAt = inDays(3);
    const done = await ok(alice, { ids, set: { expireAt, maxUses: 5 } });
    expect(done).toEqual({ changed: ids, deleted: [] });
    for (const s of shorts) {
      expect(await info(alice, s.code)).toMatchObject({ expireAt, maxUses: 5 });
    }
    await ok(alice, { ids: ids.slice(0, 2), set: { expireAt: null, maxUses: null } });
    expect(await info(alice, shorts[0].code)).toMatchObject({ expireAt: null, maxUses: null });
    expect(await info(alice, shorts[2].code)).toMatchObject({ expireAt, maxUses: 5 });
  });

  it('refuses a past expiry, a limit below 1 and bad bodies with the create rules, changing nothing', async () => {
    const [s] = await own(alice, 1);
    const past = await refused(
      await bulk(alice, { ids: [s.id], set: { expireAt: inDays(-1) } }),
      400,
    );
    expect(past).toMatchObject({
      errorKey: 'expire_past',
      detail: 'Expire At must be in the future',
    });
    const min = await refused(await bulk(alice, { ids: [s.id], set: { maxUses: 0 } }), 400);
    expect(min).toMatchObject({ errorKey: 'uses_min', detail: 'Uses must be greater than 0' });
    const big = await refused(await bulk(alice, { ids: [s.id], set: { maxUses: 2 ** 31 } }), 400);
    expect(big.fieldErrorKeys).toMatchObject({ 'set.maxUses': 'uses_invalid' });
    const year = await refused(
      await bulk(alice, { ids: [s.id], set: { expireAt: '+275760-09-13T00:00:00.000Z' } }),
      400,
    );
    expect(Object.keys(year.fieldErrors ?? {})).toContain('set.expireAt');
    const unknown = await refused(await bulk(alice, { ids: [s.id], set: { name: 'x' } }), 400);
    expect(unknown.fieldErrors).toHaveProperty(['set.name']);
    // Nothing to do, delete with more, ids that are no UUIDs, twice the same, none, 501.
    await refused(await bulk(alice, { ids: [s.id] }), 400);
    await refused(await bulk(alice, { ids: [s.id], set: {} }), 400);
    await refused(await bulk(alice, { ids: [s.id], delete: true, addTags: ['a'] }), 400);
    await refused(await bulk(alice, { ids: ['not-a-uuid'], delete: true }), 400);
    await refused(await bulk(alice, { ids: [s.id, s.id], delete: true }), 400);
    await refused(await bulk(alice, { ids: [], delete: true }), 400);
    const many = Array.from({ length: 501 }, () => randomUUID());
    const tooMany = await refused(await bulk(alice, { ids: many, delete: true }), 400);
    expect(tooMany.fieldErrors).toHaveProperty('ids');
    expect(await row(s.id)).toMatchObject({ expire_at: null, max_uses: null });
    expect(await info(alice, s.code)).toMatchObject({ id: s.id });
  });

  it('adds and removes tags keeping each short’s spelling; short_tags agrees', async () => {
    const [a, b] = await own(alice, 2);
    await ok(alice, { ids: [a.id], addTags: ['herbst'] });
    const done = await ok(alice, {
      ids: [a.id, b.id],
      addTags: [' Herbst ', 'Kampagne 2026', 'HERBST', 'Über-Sale'],
    });
    expect(done.changed).toEqual([a.id, b.id]);
    expect((await row(a.id)).tags).toBe('herbst,Kampagne 2026,Über-Sale');
    expect((await row(b.id)).tags).toBe('Herbst,Kampagne 2026,Über-Sale');
    const space = `u:${alice.userId}`;
    expect(await tagRows(a.id)).toEqual([
      { tag: 'herbst', label: 'herbst', space },
      { tag: 'kampagne 2026', label: 'Kampagne 2026', space },
      { tag: 'über-sale', label: 'Über-Sale', space },
    ]);
    await ok(alice, { ids: [a.id, b.id], removeTags: ['KAMPAGNE 2026', 'nie-gesetzt'] });
    expect((await row(a.id)).tags).toBe('herbst,Über-Sale');
    expect((await tagRows(b.id)).map((r) => r.label)).toEqual(['Herbst', 'Über-Sale']);
    // Adding and taking off the same tag: off wins; the last tag gone leaves no tags (null).
    await ok(alice, { ids: [a.id], addTags: ['x'], removeTags: ['X', 'herbst', 'über-sale'] });
    expect((await row(a.id)).tags).toBeNull();
    expect(await tagRows(a.id)).toEqual([]);
    // Bad tags: 400 tag_invalid, nothing changed.
    for (const bad of [['a,b'], [''], ['   '], ['x'.repeat(33)], ['<script>']]) {
      const p = await refused(await bulk(alice, { ids: [b.id], addTags: bad }), 400);
      expect(p.errorKey === 'tag_invalid' || p.fieldErrorKeys?.addTags === 'tag_invalid').toBe(
        true,
      );
    }
    const badRemove = await refused(
      await bulk(alice, { ids: [b.id], removeTags: ['ok', 'no/slash'] }),
      400,
    );
    expect(badRemove.errorKey).toBe('tag_invalid');
    expect((await row(b.id)).tags).toBe('Herbst,Über-Sale');
  });

  it('at most 10 tags: a short that would carry more refuses the whole edit, listing its id', async () => {
    const [full, other] = await own(alice, 2);
    const nine = Array.from({ length: 9 }, (_, i) => `t${i}`);
    await ok(alice, { ids: [full.id], addTags: nine });
    const res = await bulk(alice, { ids: [full.id, other.id], addTags: ['Neu', 'Zwei'] });
    const p = await refused(res, 400);
    expect(p).toMatchObject({ errorKey: 'too_many_tags', ids: [full.id] });
    expect((await row(other.id)).tags).toBeNull();
    expect(await tagRows(full.id)).toHaveLength(9);
    // A tag the short has already (another spelling) does not count; the tenth fits.
    await ok(alice, { ids: [full.id, other.id], addTags: ['T0', 'Neu'] });
    expect((await row(full.id)).tags).toBe([...nine, 'Neu'].join(','));
    expect((await row(other.id)).tags).toBe('T0,Neu');
    expect(await tagRows(full.id)).toHaveLength(10);
    // More than 10 to add at once is refused at the boundary.
    const eleven = Array.from({ length: 11 }, (_, i) => `n${i}`);
    await refused(await bulk(alice, { ids: [other.id], addTags: eleven }), 400);
  });

  it('moves shorts into a team and back; short_tags follow their space', async () => {
    const shorts = await own(alice, 2);
    const ids = shorts.map((s) => s.id);
    await ok(alice, { ids, addTags: ['Team-Tag'] });
    await ok(alice, { ids, set: { team } });
    for (const s of shorts) {
      expect(await info(alice, s.code)).toMatchObject({ team: { id: team, name: 'Marketing' } });
      expect((await tagRows(s.id))[0].space).toBe(`t:${team}`);
    }
    // The team's viewer sees them; bob (editor) moves them to his own space.
    expect((await info(vera, shorts[0].code)).team).toEqual({ id: team, name: 'Marketing' });
    await ok(bob, { ids, set: { team: null } });
    for (const s of shorts) {
      const r = await row(s.id);
      expect(r).toMatchObject({ team_id: null, owner_id: bob.userId });
      expect(await tagRows(s.id)).toEqual([
        { tag: 'team-tag', label: 'Team-Tag', space: `u:${bob.userId}` },
      ]);
    }
    // A team the caller may not write to: 403 team_forbidden (vera is a viewer), nothing moved.
    const [v] = await own(vera, 1);
    const p = await refused(await bulk(vera, { ids: [v.id], set: { team } }), 403);
    expect(p.errorKey).toBe('team_forbidden');
    const unknownTeam = await refused(
      await bulk(vera, { ids: [v.id], set: { team: randomUUID() } }),
      403,
    );
    expect(unknownTeam.errorKey).toBe('team_forbidden');
    expect((await row(v.id)).team_id).toBeNull();
  });

  it('deletes shorts (with their tags); they are gone for the owner and for visitors', async () => {
    const shorts = await own(alice, 3);
    const ids = shorts.map((s) => s.id);
    await ok(alice, { ids, addTags: ['weg'] });
    const done = await ok(alice, { ids, delete: true });
    expect(done).toEqual({ changed: [], deleted: ids });
    for (const s of shorts) {
      expect((await t.fetch(`/api/code/${s.code}?redirect=false`)).status).toBe(404);
      expect(await row(s.id)).toBeUndefined();
      expect(await tagRows(s.id)).toEqual([]);
    }
  });

  it('a foreign or unknown id refuses the whole bulk (403 not_owner listing them); nothing happens', async () => {
    const mine = await own(alice, 2);
    const [foreign] = await own(bob, 1);
    const unknown = randomUUID();
    const ids = [mine[0].id, foreign.id, mine[1].id, unknown];
    for (const body of [
      { ids, set: { maxUses: 3 } },
      { ids, addTags: ['x'] },
      { ids, delete: true },
    ]) {
      const p = await refused(await bulk(alice, body), 403);
      expect(p.errorKey).toBe('not_owner');
      expect(p.ids).toEqual([foreign.id, unknown]);
    }
    for (const s of [...mine, foreign]) {
      expect(await row(s.id)).toMatchObject({ max_uses: null, tags: null });
    }
    // Only unknown ids: the same answer.
    const none = await refused(await bulk(alice, { ids: [unknown], delete: true }), 403);
    expect(none.ids).toEqual([unknown]);
    // Anonymous callers: 401.
    expect((await t.post('/api/code/bulk', { ids: [mine[0].id], delete: true })).status).toBe(401);
  });

  it('team roles: a viewer is refused, an editor and an admin may; a key needs shorts:write', async () => {
    const [x, y] = await own(alice, 2, { team });
    const p = await refused(await bulk(vera, { ids: [x.id, y.id], set: { maxUses: 9 } }), 403);
    expect(p).toMatchObject({ errorKey: 'not_owner', ids: [x.id, y.id] });
    await ok(bob, { ids: [x.id], set: { maxUses: 9 } });
    await ok(admin, { ids: [y.id], set: { maxUses: 8 } });
    expect((await row(x.id)).max_uses).toBe(9);
    expect((await row(y.id)).max_uses).toBe(8);

    const key = async (scopes: string[]) => {
      const res = await alice.post('/api/self/apikeys', { name: `k${randomUUID()}`, scopes });
      expect(res.status).toBe(201);
      return ((await res.json()) as { key: string }).key;
    };
    const viaKey = (k: string, body: unknown) =>
      t.fetch('/api/code/bulk', {
        method: 'POST',
        headers: { authorization: `Bearer ${k}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const [mine] = await own(alice, 1);
    const readOnly = await refused(
      await viaKey(await key(['shorts:read']), { ids: [mine.id], delete: true }),
      403,
    );
    expect(readOnly.errorKey).toBe('scope_missing');
    const writer = await viaKey(await key(['shorts:write']), {
      ids: [mine.id],
      set: { maxUses: 4 },
    });
    expect(writer.status).toBe(200);
    expect((await row(mine.id)).max_uses).toBe(4);
  });

  it('a short deleted between the check and the write fails the whole bulk (409), nothing changed', async () => {
    const shorts = await own(alice, 3);
    const ids = shorts.map((s) => s.id);
    const victim = shorts[1];
    // The webhooks' hold runs after the rights were checked and before the transaction.
    const hub = t.app.get(ShortChangeHub);
    const hold = hub.hold.bind(hub);
    vi.spyOn(hub, 'hold').mockImplementationOnce(async (type, list) => {
      expect((await alice.delete(`/api/code/${victim.id}`)).status).toBe(204);
      return hold(type, list);
    });
    const p = await refused(
      await bulk(alice, { ids, set: { maxUses: 2 }, addTags: ['race'] }),
      409,
    );
    expect(p).toMatchObject({ errorKey: 'bulk_conflict', ids: [victim.id] });
    for (const s of [shorts[0], shorts[2]]) {
      expect(await row(s.id)).toMatchObject({ max_uses: null, tags: null });
      expect(await tagRows(s.id)).toEqual([]);
    }
    // The same race of a delete bulk: the others stay.
    const more = await own(alice, 3);
    vi.spyOn(hub, 'hold').mockImplementationOnce(async (type, list) => {
      expect((await alice.delete(`/api/code/${more[0].id}`)).status).toBe(204);
      return hold(type, list);
    });
    const d = await refused(await bulk(alice, { ids: more.map((s) => s.id), delete: true }), 409);
    expect(d.ids).toEqual([more[0].id]);
    expect(await row(more[1].id)).toBeDefined();
    expect(await row(more[2].id)).toBeDefined();
  });

  it('a bulk and concurrent single deletes: each bulk is all or nothing', async () => {
    for (let round = 0; round < 6; round++) {
      const shorts = await own(alice, 4);
      const ids = shorts.map((s) => s.id);
      const [res, del] = await Promise.all([
        bulk(alice, { ids, set: { maxUses: 7 } }),
        alice.delete(`/api/code/${ids[round % 4]}`),
      ]);
      expect(del.status).toBe(204);
      const left = ids.filter((_, i) => i !== round % 4);
      const uses = await Promise.all(left.map(async (id) => (await row(id)).max_uses));
      // Done for all, or refused (the delete came first: 403, the id is unknown; or meanwhile:
      // 409) with nothing written.
      if (res.status === 200) expect(uses).toEqual(left.map(() => 7));
      else {
        expect([403, 409]).toContain(res.status);
        expect(((await res.json()) as Problem).ids).toEqual([ids[round % 4]]);
        expect(uses).toEqual(left.map(() => null));
      }
    }
  });

  it('webhooks get short.updated per changed short and short.deleted per deleted one; a followed short’s new expiry takes effect at once', async () => {
    const hook = await alice.post('/api/webhooks', {
      url: rx.url,
      events: ['short.updated', 'short.deleted'],
    });
    expect(hook.status).toBe(201);
    rx.state.secret = ((await hook.json()) as { secret: string }).secret;
    const shorts = await own(alice, 3);
    const ids = shorts.map((s) => s.id);
    // Followed (so the follow cache holds them), then an expiry in 1.5 s.
    for (const s of shorts) expect((await t.fetch(`/s/${s.code}`)).status).toBe(302);
    const expireAt = new Date(Date.now() + 1500).toISOString();
    await ok(alice, { ids, set: { expireAt }, addTags: ['Hook'] });
    await t.app.get(WebhookDeliveryJob).idle();
    const updated = rx.received.filter((r) => r.type === 'short.updated');
    expect(updated.map((r) => r.data.id).sort()).toEqual([...ids].sort());
    for (const r of updated) expect(r.data).toMatchObject({ expireAt });
    await new Promise((r) => setTimeout(r, 1600));
    for (const s of shorts) {
      expect((await t.fetch(`/s/${s.code}`)).headers.get('location')).toBe(
        `/s/${s.code}/not-found?reason=expired`,
      );
    }
    await ok(alice, { ids, delete: true });
    await t.app.get(WebhookDeliveryJob).idle();
    const deleted = rx.received.filter((r) => r.type === 'short.deleted');
    expect(
      deleted.map((r) => r.data).sort((a, b) => String(a.id).localeCompare(String(b.id))),
    ).toEqual(
      shorts
        .map((s) => ({ id: s.id, code: s.code, domain: null }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    );
    // A refused bulk sends nothing.
    const before = rx.received.length;
    const [x] = await own(alice, 1);
    await refused(await bulk(alice, { ids: [x.id, randomUUID()], set: { maxUses: 1 } }), 403);
    await t.app.get(WebhookDeliveryJob).idle();
    expect(rx.received.length).toBe(before);
  });

  it('500 shorts in one bulk: all changed, and a follow meanwhile waits at most 250 ms', async () => {
    // Alice's webhook (above) wants short.updated and short.deleted: 500 events held and released
    // per bulk. Their delivery is the webhooks' own background job (50 at a time, as after an
    // import): held back here, so that the probe measures the bulk's request.
    vi.spyOn(t.app.get(WebhookDeliveryJob), 'wake').mockImplementation(() => undefined);
    const probe = (await createShort(bob)).code;
    const shorts = await insertShorts(t, 500, () => ({ ownerId: alice.userId }));
    const ids = shorts.map((s) => s.id);
    const figures: Record<string, string> = {};
    /** Runs a bulk while the probe short is followed every 50 ms; the longest wait of a follow. */
    const run = async (name: string, body: Record<string, unknown>) => {
      const loop = monitorEventLoopDelay({ resolution: 1 });
      const waits: number[] = [];
      let running = true;
      const started = Date.now();
      const follower = (async () => {
        for (let i = 0; running || i < 3; i++) {
          const due = started + i * 50;
          if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
          expect((await t.fetch(`/s/${probe}`)).status).toBe(302);
          waits.push(Date.now() - due);
        }
      })();
      loop.enable();
      let done: { changed: string[]; deleted: string[] };
      try {
        done = await ok(alice, body);
      } finally {
        running = false;
        loop.disable();
        await follower;
      }
      const took = Date.now() - started;
      const max = Math.max(...waits);
      figures[name] =
        `${took} ms, follow wait max ${max} ms, event loop delay max ${Math.round(loop.max / 1e6)} ms`;
      console.log(
        `[bulk of 500, ${process.env.TEST_DB_URL ?? 'sqlite'}] ${name}: ${figures[name]}`,
      );
      expect(max, `${name}: the longest wait of a follow`).toBeLessThanOrEqual(250);
      return done;
    };
    const tags = Array.from({ length: 10 }, (_, i) => `Tag ${i}`);
    expect((await run('one tag', { ids, addTags: ['tag 0'] })).changed).toHaveLength(500);
    expect(
      (await run('10 tags and expiry', { ids, set: { expireAt: inDays(5) }, addTags: tags }))
        .changed,
    ).toHaveLength(500);
    expect((await run('move to the team', { ids, set: { team } })).changed).toHaveLength(500);
    expect((await run('5 tags off', { ids, removeTags: tags.slice(0, 5) })).changed).toHaveLength(
      500,
    );
    const [count] = await t.query<Array<{ n: number | string }>>(
      `SELECT COUNT(*) AS n FROM short_tags WHERE space = ? AND short_id IN (${ids.map(() => '?').join(',')})`,
      [`t:${team}`, ...ids],
    );
    expect(Number(count.n)).toBe(2500);
    await ok(alice, { ids, set: { team: null } });
    expect((await run('delete', { ids, delete: true })).deleted).toHaveLength(500);
  });
});

describe('bulk edits: LIMIT_BULK', () => {
  const t = useTestApp({ AUTH_DEV_LOGIN: 'true', ADMIN_USERS: 'dev:admin', LIMIT_BULK: '2/min' });
  const carl = useLogin(t, 'carl');
  const admin = useLogin(t, 'admin');

  it('counts each user’s bulks (admins too): over it 429 with Retry-After, nothing changed', async () => {
    const { id, code } = await createShort(carl, { url: 'https://example.com/limit' });
    for (const n of [1, 2]) {
      const res = await carl.post('/api/code/bulk', { ids: [id], set: { maxUses: n } });
      expect(res.status, await res.clone().text()).toBe(200);
    }
    const over = await carl.post('/api/code/bulk', { ids: [id], set: { maxUses: 99 } });
    const problem = await expectProblem(over, 429);
    expect(problem.errorKey).toBe('rate_limited');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    const info = (await (await carl.fetch(`/api/code/${code}?redirect=false`)).json()) as {
      maxUses: number;
    };
    expect(info.maxUses).toBe(2);
    // Another user has his own count; an admin is counted too.
    const { id: own } = await createShort(admin, { url: 'https://example.com/admin-limit' });
    for (let n = 1; n <= 2; n++) {
      expect((await admin.post('/api/code/bulk', { ids: [own], set: { maxUses: n } })).status).toBe(
        200,
      );
    }
    await expectProblem(
      await admin.post('/api/code/bulk', { ids: [own], set: { maxUses: 3 } }),
      429,
    );
  });
});
