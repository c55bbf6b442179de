import { PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService } from '@nestjs/core';
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUTH_SCOPE } from '../../src/common/auth.guard';
import { API_KEY_SCOPES, type ApiKeyScope, LIMIT_API_KEYS } from '../../src/shared/teams';
import { type TestApp, useTestApp, useTestDatabase } from '../support/app';
import { type LoggedIn, loginAs, useLogin } from '../support/login';
import { expectProblem } from '../support/problem';
import { createShort } from '../support/shorts';
import { pause, waitFor } from '../support/wait';
import { countOf, expectCapHoldsUnderRace } from '../support/caps';

interface KeySummary {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  team: { id: string; name: string } | null;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}
type CreatedKey = KeySummary & { key: string };

const SUMMARY_FIELDS = [
  'createdAt',
  'expiresAt',
  'id',
  'lastUsedAt',
  'name',
  'prefix',
  'scopes',
  'team',
].sort();

/** A time as the raw SQL of every engine takes it in a datetime column (UTC). */
const dbTime = (d: Date) => d.toISOString().slice(0, 23).replace('T', ' ');

async function createKey(user: LoggedIn, body: Record<string, unknown>): Promise<Response> {
  return user.post('/api/self/apikeys', body);
}

async function newKey(user: LoggedIn, body: Record<string, unknown>): Promise<CreatedKey> {
  const res = await createKey(user, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as CreatedKey;
}

async function listKeys(user: LoggedIn): Promise<KeySummary[]> {
  const res = await user.fetch('/api/self/apikeys');
  expect(res.status).toBe(200);
  return (await res.json()) as KeySummary[];
}

/** A call with the key (plain fetch: the table below asserts scope decisions only). */
function withKey(
  t: TestApp,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  return fetch(t.url + path, {
    method,
    redirect: 'manual',
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function errorKeyOf(res: Response): Promise<string | undefined> {
  const type = res.headers.get('content-type') ?? '';
  if (!/json/.test(type)) {
    await res.arrayBuffer();
    return undefined;
  }
  return ((await res.json()) as { errorKey?: string }).errorKey;
}

/** A team with `members` (user id → role), written straight to the database. */
async function insertTeam(t: TestApp, name: string, members: Record<string, string>) {
  const id = randomUUID();
  const now = dbTime(new Date());
  await t.query('INSERT INTO teams (id, name, created_at) VALUES (?, ?, ?)', [id, name, now]);
  for (const [userId, role] of Object.entries(members)) {
    await t.query(
      'INSERT INTO team_members (team_id, user_id, role, joined_at) VALUES (?, ?, ?, ?)',
      [id, userId, role, now],
    );
  }
  return id;
}

/** A row of the scope matrix: an operation, the scope it needs (null: public) and a call of it. */
interface ScopedRoute {
  op: string;
  scope: ApiKeyScope | null;
  method: string;
  path: string;
  body?: unknown;
}

/**
 * The scope matrix: every operation an API key may call, with the scope it needs (null: public,
 * any key passes), on `short` (the caller's) and `none` (an id of nothing).
 */
function scopeMatrix(short: { id: string; code: string }, none: string): ScopedRoute[] {
  return [
    { op: 'listOwnShorts', scope: 'shorts:read', method: 'GET', path: '/api/code' },
    { op: 'listTags', scope: 'shorts:read', method: 'GET', path: '/api/tags' },
    {
      op: 'createShort',
      scope: 'shorts:write',
      method: 'POST',
      path: '/api/code',
      body: { url: 'https://example.com/k' },
    },
    {
      op: 'updateShort',
      scope: 'shorts:write',
      method: 'PATCH',
      path: `/api/code/${short.id}`,
      body: {},
    },
    { op: 'deleteShort', scope: 'shorts:write', method: 'DELETE', path: `/api/code/${none}` },
    {
      op: 'bulkEditShorts',
      scope: 'shorts:write',
      method: 'POST',
      path: '/api/code/bulk',
      body: { ids: [none], delete: true },
    },
    {
      op: 'getOrFollowShort',
      scope: null,
      method: 'GET',
      path: `/api/code/${short.code}?redirect=false`,
    },
    {
      op: 'getShortStatistics',
      scope: 'statistics:read',
      method: 'GET',
      path: `/api/code/${short.id}/statistics`,
    },
    {
      op: 'getShortStatisticsCsv',
      scope: 'statistics:read',
      method: 'GET',
      path: `/api/code/${short.id}/statistics.csv`,
    },
    {
      op: 'getTagStatistics',
      scope: 'statistics:read',
      method: 'GET',
      path: '/api/statistics?tag=Herbst',
    },
    {
      op: 'getTagStatisticsCsv',
      scope: 'statistics:read',
      method: 'GET',
      path: '/api/statistics.csv?tag=Herbst',
    },
    {
      op: 'listShortReports',
      scope: 'shorts:read',
      method: 'GET',
      path: `/api/code/${short.id}/reports`,
    },
    {
      op: 'getShortQrSvg',
      scope: 'shorts:read',
      method: 'GET',
      path: `/api/code/${short.code}/qr.svg`,
    },
    {
      op: 'getShortQrPng',
      scope: 'shorts:read',
      method: 'GET',
      path: `/api/code/${short.code}/qr.png`,
    },
    { op: 'exportShorts', scope: 'shorts:read', method: 'GET', path: '/api/code/export' },
    {
      op: 'importShorts',
      scope: 'shorts:write',
      method: 'POST',
      path: '/api/code/import',
      body: { shorts: [] },
    },
    {
      op: 'checkShortHealth',
      scope: 'shorts:write',
      method: 'POST',
      path: `/api/code/${none}/health`,
    },
    { op: 'listDomains', scope: 'domains:read', method: 'GET', path: '/api/domains' },
    {
      op: 'domainAllowed',
      scope: 'domains:read',
      method: 'GET',
      path: '/api/domains/allowed?domain=x.example',
    },
    {
      op: 'createDomain',
      scope: 'domains:write',
      method: 'POST',
      path: '/api/domains',
      body: { host: 'scoped.example' },
    },
    {
      op: 'updateDomain',
      scope: 'domains:write',
      method: 'PATCH',
      path: `/api/domains/${none}`,
      body: {},
    },
    {
      op: 'verifyDomain',
      scope: 'domains:write',
      method: 'POST',
      path: `/api/domains/${none}/verify`,
    },
    { op: 'deleteDomain', scope: 'domains:write', method: 'DELETE', path: `/api/domains/${none}` },
    { op: 'listUtmTemplates', scope: 'shorts:read', method: 'GET', path: '/api/utm-templates' },
    // Empty bodies: a key that passes the scope gets 400 (nothing created).
    {
      op: 'createUtmTemplate',
      scope: 'shorts:write',
      method: 'POST',
      path: '/api/utm-templates',
      body: {},
    },
    {
      op: 'deleteUtmTemplate',
      scope: 'shorts:write',
      method: 'DELETE',
      path: `/api/utm-templates/${none}`,
    },
    { op: 'listPages', scope: 'shorts:read', method: 'GET', path: '/api/pages' },
    { op: 'createPage', scope: 'shorts:write', method: 'POST', path: '/api/pages', body: {} },
    { op: 'getPage', scope: 'shorts:read', method: 'GET', path: `/api/pages/${none}` },
    {
      op: 'updatePage',
      scope: 'shorts:write',
      method: 'PATCH',
      path: `/api/pages/${none}`,
      body: {},
    },
    { op: 'deletePage', scope: 'shorts:write', method: 'DELETE', path: `/api/pages/${none}` },
    {
      op: 'getPageStatistics',
      scope: 'statistics:read',
      method: 'GET',
      path: `/api/pages/${none}/statistics`,
    },
    { op: 'listWebhooks', scope: 'webhooks:write', method: 'GET', path: '/api/webhooks' },
    // An empty body: a key that passes the scope gets 400 (nothing created).
    {
      op: 'createWebhook',
      scope: 'webhooks:write',
      method: 'POST',
      path: '/api/webhooks',
      body: {},
    },
    {
      op: 'updateWebhook',
      scope: 'webhooks:write',
      method: 'PATCH',
      path: `/api/webhooks/${none}`,
      body: {},
    },
    {
      op: 'deleteWebhook',
      scope: 'webhooks:write',
      method: 'DELETE',
      path: `/api/webhooks/${none}`,
    },
    {
      op: 'testWebhook',
      scope: 'webhooks:write',
      method: 'POST',
      path: `/api/webhooks/${none}/test`,
    },
    {
      op: 'listWebhookDeliveries',
      scope: 'webhooks:write',
      method: 'GET',
      path: `/api/webhooks/${none}/deliveries`,
    },
    {
      op: 'retryWebhookDelivery',
      scope: 'webhooks:write',
      method: 'POST',
      path: `/api/webhooks/${none}/deliveries/${randomUUID()}/retry`,
    },
  ];
}

/**
 * Every route of the running app that names a scope (`@Scope`), as [operationId, scope]: the
 * operations an API key may call. The operationId is the one the OpenAPI document gives
 * (`@ApiOperation`'s, else the method's name).
 */
function scopedOperations(t: TestApp): Array<[string, ApiKeyScope]> {
  const found: Array<[string, ApiKeyScope]> = [];
  for (const wrapper of t.app.get(DiscoveryService, { strict: false }).getControllers()) {
    const type = wrapper.metatype as (new (...args: never[]) => unknown) | undefined;
    if (!type) continue;
    const proto = type.prototype as Record<string, object>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor' || typeof proto[name] !== 'function') continue;
      const fn = proto[name];
      if (Reflect.getMetadata(PATH_METADATA, fn) === undefined) continue;
      const scope = (Reflect.getMetadata(AUTH_SCOPE, fn) ??
        Reflect.getMetadata(AUTH_SCOPE, type)) as ApiKeyScope | undefined;
      if (!scope) continue;
      const operation = Reflect.getMetadata('swagger/apiOperation', fn) as
        { operationId?: string } | undefined;
      found.push([operation?.operationId ?? name, scope]);
    }
  }
  return found.sort(([a], [b]) => a.localeCompare(b));
}

describe('API keys: several, named, scoped', () => {
  const t = useTestApp({ AUTH_DEV_LOGIN: 'true', ADMIN_USERS: 'dev:admin' });
  const alice = useLogin(t, 'alice');
  const bob = useLogin(t, 'bob');
  const carol = useLogin(t, 'carol');
  const admin = useLogin(t, 'admin');

  it('needs a login', async () => {
    expect((await t.fetch('/api/self/apikeys')).status).toBe(401);
    expect((await t.post('/api/self/apikeys', { name: 'x', scopes: ['shorts:read'] })).status).toBe(
      401,
    );
  });

  it('creates, lists and deletes; the key is shown in the create answer only', async () => {
    const created = await newKey(alice, { name: '  CI deploy  ', scopes: ['shorts:read'] });
    expect(Object.keys(created).sort()).toEqual([...SUMMARY_FIELDS, 'key'].sort());
    expect(created).toMatchObject({
      name: 'CI deploy',
      scopes: ['shorts:read'],
      team: null,
      expiresAt: null,
      lastUsedAt: null,
    });
    expect(created.key).toMatch(/^us_[A-Za-z0-9_-]{43}$/);
    expect(created.prefix).toBe(created.key.slice(0, 10));
    expect(Date.parse(created.createdAt)).toBeGreaterThan(Date.now() - 60_000);

    const list = await listKeys(alice);
    const listed = list.find((k) => k.id === created.id);
    expect(listed).toBeDefined();
    expect(Object.keys(listed!).sort()).toEqual(SUMMARY_FIELDS);
    expect(JSON.stringify(list)).not.toContain(created.key);

    // stored as a hash, no copy that could reveal it
    const [row] = await t.query('SELECT * FROM api_keys WHERE id = ?', [created.id]);
    expect(row.key_hash).toBe(createHash('sha256').update(created.key).digest('hex'));
    expect(row.key_encrypted).toBe('');
    expect(JSON.stringify(row)).not.toContain(created.key.slice(10));

    // the key works
    const own = await withKey(t, created.key, 'GET', '/api/code');
    expect(own.status).toBe(200);
    await own.arrayBuffer();

    // another user cannot delete it
    await expectProblem(await bob.delete(`/api/self/apikeys/${created.id}`), 404);
    const del = await alice.delete(`/api/self/apikeys/${created.id}`);
    expect(del.status).toBe(204);
    const after = await withKey(t, created.key, 'GET', '/api/code');
    expect((await expectProblem(after, 401)).errorKey).toBe('api_key_invalid');
    expect((await listKeys(alice)).some((k) => k.id === created.id)).toBe(false);
    await expectProblem(await alice.delete(`/api/self/apikeys/${created.id}`), 404);
    await expectProblem(await alice.delete('/api/self/apikeys/not-a-uuid'), 400);
  });

  it('name rules: 1–64 characters trimmed, unique per user, ShareX reserved', async () => {
    for (const name of ['', '   ', 'x'.repeat(65)]) {
      const body = await expectProblem(
        await createKey(alice, { name, scopes: ['shorts:read'] }),
        400,
      );
      expect(body.errorKey, name).toBe('validation_failed');
      expect(Object.keys(body.fieldErrors ?? {}), name).toEqual(['name']);
    }
    const wrongType = await expectProblem(
      await createKey(alice, { name: 5, scopes: ['shorts:read'] }),
      400,
    );
    expect(Object.keys(wrongType.fieldErrors ?? {})).toEqual(['name']);

    const long = await newKey(alice, { name: 'n'.repeat(64), scopes: ['shorts:read'] });
    expect(long.name).toHaveLength(64);
    await newKey(alice, { name: 'twice', scopes: ['shorts:read'] });
    const dup = await expectProblem(
      await createKey(alice, { name: ' twice ', scopes: ['shorts:write'] }),
      409,
    );
    expect(dup.errorKey).toBe('api_key_name_exists');
    // another user may use the same name
    await newKey(bob, { name: 'twice', scopes: ['shorts:read'] });
    for (const name of ['ShareX', 'sharex']) {
      const reserved = await expectProblem(
        await createKey(carol, { name, scopes: ['shorts:read'] }),
        409,
      );
      expect(reserved.errorKey).toBe('api_key_name_exists');
    }
  });

  it('scopes: a non-empty list of distinct known scopes', async () => {
    const bad: unknown[] = [
      undefined,
      [],
      ['nope'],
      ['shorts:read', 'shorts:read'],
      'shorts:read',
      [5],
      [...API_KEY_SCOPES, 'extra'],
    ];
    for (const scopes of bad) {
      const body = await expectProblem(await createKey(alice, { name: 'scopes', scopes }), 400);
      expect(body.errorKey, JSON.stringify(scopes)).toBe('validation_failed');
      expect(Object.keys(body.fieldErrors ?? {}), JSON.stringify(scopes)).toEqual(['scopes']);
    }
    const all = await newKey(alice, { name: 'all', scopes: [...API_KEY_SCOPES].reverse() });
    expect(all.scopes).toEqual([...API_KEY_SCOPES]);
    const extra = await expectProblem(
      await createKey(alice, { name: 'extra', scopes: ['shorts:read'], admin: true }),
      400,
    );
    expect(Object.keys(extra.fieldErrors ?? {})).toEqual(['admin']);
  });

  it('expiry: in the future and storable; an expired key answers 401', async () => {
    const cases = ['2001-01-01T00:00:00Z', 'tomorrow', '+010000-01-01T00:00:00Z', 12];
    for (const expiresAt of cases) {
      const body = await expectProblem(
        await createKey(alice, { name: 'exp', scopes: ['shorts:read'], expiresAt }),
        400,
      );
      expect(Object.keys(body.fieldErrors ?? {}), String(expiresAt)).toEqual(['expiresAt']);
    }
    const until = new Date(Date.now() + 86_400_000).toISOString();
    const k = await newKey(alice, { name: 'expiring', scopes: ['shorts:read'], expiresAt: until });
    expect(k.expiresAt).toBe(until);
    const ok = await withKey(t, k.key, 'GET', '/api/code');
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();
    await t.query('UPDATE api_keys SET expires_at = ? WHERE id = ?', [
      dbTime(new Date(Date.now() - 1000)),
      k.id,
    ]);
    const expired = await withKey(t, k.key, 'GET', '/api/code');
    expect((await expectProblem(expired, 401)).errorKey).toBe('api_key_invalid');
  });

  it('team keys: members only, a viewer read scopes only; the creator’s role caps the key, leaving the team ends it', async () => {
    const team = await insertTeam(t, 'Marketing', {
      [alice.userId]: 'owner',
      [bob.userId]: 'viewer',
    });
    const stranger = await expectProblem(
      await createKey(carol, { name: 'team', scopes: ['shorts:read'], team }),
      403,
    );
    expect(stranger.errorKey).toBe('team_forbidden');
    const unknown = await expectProblem(
      await createKey(alice, { name: 'team', scopes: ['shorts:read'], team: randomUUID() }),
      403,
    );
    expect(unknown.errorKey).toBe('team_forbidden');
    const viewerWrite = await expectProblem(
      await createKey(bob, { name: 'team', scopes: ['shorts:read', 'shorts:write'], team }),
      400,
    );
    expect(viewerWrite.errorKey).toBe('api_key_scope_invalid');
    const viewerKey = await newKey(bob, {
      name: 'team read',
      scopes: ['shorts:read', 'statistics:read', 'domains:read'],
      team,
    });
    expect(viewerKey.team).toEqual({ id: team, name: 'Marketing' });

    const ownerKey = await newKey(alice, {
      name: 'team write',
      scopes: ['shorts:read', 'shorts:write'],
      team,
    });
    expect(ownerKey.team).toEqual({ id: team, name: 'Marketing' });
    const account = await withKey(t, ownerKey.key, 'GET', '/api/account');
    expect(account.status).toBe(200);
    expect(((await account.json()) as { username: string }).username).toBe('alice');

    // demoted to viewer: the key keeps its read scopes only, at once
    await t.query('UPDATE team_members SET role = ? WHERE team_id = ? AND user_id = ?', [
      'viewer',
      team,
      alice.userId,
    ]);
    const write = await withKey(t, ownerKey.key, 'POST', '/api/code', {
      url: 'https://example.com/team',
    });
    expect((await expectProblem(write, 403)).errorKey).toBe('scope_missing');
    const read = await withKey(t, ownerKey.key, 'GET', '/api/account');
    expect(read.status).toBe(200);
    await read.arrayBuffer();

    // removed from the team: 401 on the next request
    await t.query('DELETE FROM team_members WHERE team_id = ? AND user_id = ?', [
      team,
      alice.userId,
    ]);
    const gone = await withKey(t, ownerKey.key, 'GET', '/api/account');
    expect((await expectProblem(gone, 401)).errorKey).toBe('api_key_invalid');
    // the other member's key still works
    const still = await withKey(t, viewerKey.key, 'GET', '/api/account');
    expect(still.status).toBe(200);
    await still.arrayBuffer();
  });

  it('the ShareX key: revealed, renewed, listed and counted', async () => {
    const dave = await loginAs(t, 'dave');
    expect((await dave.fetch('/api/self/apikey')).status).toBe(404);
    const put = (await (await dave.put('/api/self/apikey')).json()) as { id: string };
    const revealed = (await (await dave.fetch('/api/self/apikey')).json()) as { id: string };
    expect(revealed.id).toBe(put.id);
    const [sharex] = await listKeys(dave);
    expect(sharex).toMatchObject({
      name: 'ShareX',
      scopes: ['shorts:read', 'shorts:write'],
      team: null,
      expiresAt: null,
      prefix: put.id.slice(0, 10),
    });
    expect(JSON.stringify(await listKeys(dave))).not.toContain(put.id);
    const renewed = (await (await dave.put('/api/self/apikey')).json()) as { id: string };
    expect((await withKey(t, put.id, 'GET', '/api/code')).status).toBe(401);
    const fresh = await withKey(t, renewed.id, 'GET', '/api/code');
    expect(fresh.status).toBe(200);
    await fresh.arrayBuffer();
    const keys = await listKeys(dave);
    expect(keys).toHaveLength(1);
    expect(keys[0].id).toBe(sharex.id);
    expect(keys[0].prefix).toBe(renewed.id.slice(0, 10));
    // a named key is never revealed by GET /api/self/apikey
    await newKey(dave, { name: 'other', scopes: ['shorts:read'] });
    const again = (await (await dave.fetch('/api/self/apikey')).json()) as { id: string };
    expect(again.id).toBe(renewed.id);
    // deleting it through the list ends it
    const del = await dave.delete(`/api/self/apikeys/${sharex.id}`);
    expect(del.status).toBe(204);
    expect((await dave.fetch('/api/self/apikey')).status).toBe(404);
    expect((await withKey(t, renewed.id, 'GET', '/api/code')).status).toBe(401);
  });

  it(`at most ${LIMIT_API_KEYS} keys per user, the ShareX key included; parallel creates at the cap cannot pass it`, async () => {
    const erin = await loginAs(t, 'erin');
    expect((await erin.put('/api/self/apikey')).status).toBe(200);
    for (let i = 1; i < LIMIT_API_KEYS - 1; i++) {
      await newKey(erin, { name: `k${i}`, scopes: ['shorts:read'] });
    }
    expect(await listKeys(erin)).toHaveLength(LIMIT_API_KEYS - 1);
    await expectCapHoldsUnderRace({
      tries: 6,
      created: 1,
      cap: LIMIT_API_KEYS,
      create: (i) => createKey(erin, { name: `race${i}`, scopes: ['shorts:read'] }),
      stored: async () =>
        countOf(
          await t.query('SELECT COUNT(*) AS n FROM api_keys WHERE user_id = ?', [erin.userId]),
        ),
    });
    // renewing the existing ShareX key is no new key
    expect((await erin.put('/api/self/apikey')).status).toBe(200);
    // without it, a new ShareX key counts too
    const sharex = (await listKeys(erin)).find((k) => k.name === 'ShareX')!;
    expect((await erin.delete(`/api/self/apikeys/${sharex.id}`)).status).toBe(204);
    await newKey(erin, { name: 'last', scopes: ['shorts:read'] });
    const full = await expectProblem(await erin.put('/api/self/apikey'), 409);
    expect(full.errorKey).toBe('quota_exceeded');
    expect(await listKeys(erin)).toHaveLength(LIMIT_API_KEYS);
  });

  it('lastUsedAt is written after a call, not per request (at most once a minute)', async () => {
    const k = await newKey(carol, { name: 'usage', scopes: ['shorts:read'] });
    expect(k.lastUsedAt).toBeNull();
    const first = await withKey(t, k.key, 'GET', '/api/code');
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    const used = await waitFor(
      async () => (await listKeys(carol)).find((x) => x.id === k.id)!.lastUsedAt,
      { timeoutMs: 2000, intervalMs: 20, message: 'lastUsedAt written in the background' },
    );
    expect(Date.parse(used)).toBeGreaterThan(Date.now() - 60_000);
    for (let i = 0; i < 5; i++) {
      const res = await withKey(t, k.key, 'GET', '/api/code');
      await res.arrayBuffer();
    }
    await pause(200); // time for a second write, which must not happen
    expect((await listKeys(carol)).find((x) => x.id === k.id)!.lastUsedAt).toBe(used);
  });

  it('session-only routes refuse every key with 403 scope_missing', async () => {
    const own = await newKey(admin, { name: 'everything', scopes: [...API_KEY_SCOPES] });
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/api/self/apikeys'],
      ['POST', '/api/self/apikeys', { name: 'by key', scopes: ['shorts:read'] }],
      ['DELETE', `/api/self/apikeys/${own.id}`],
      ['GET', '/api/self/apikey'],
      ['PUT', '/api/self/apikey'],
      ['GET', '/api/admin/entity'],
      ['POST', '/api/admin/entity/apikeys/search', {}],
      ['DELETE', `/api/admin/entity/apikeys/${own.id}`],
      ['GET', '/management/info'],
      ['GET', '/management/loggers'],
    ];
    const teams = await admin.fetch('/api/teams');
    if (teams.status !== 404)
      routes.push(['GET', '/api/teams'], ['POST', '/api/teams', { name: 'x' }]);
    await teams.arrayBuffer();
    for (const [method, path, body] of routes) {
      const res = await withKey(t, own.key, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await errorKeyOf(res), `${method} ${path}`).toBe('scope_missing');
    }
    // the key still exists (its own DELETE was refused)
    expect((await listKeys(admin)).some((k) => k.id === own.id)).toBe(true);
  });

  it('every scoped route: a key with only that scope passes it and is refused elsewhere (403 scope_missing)', async () => {
    const short = await createShort(alice, { url: 'https://example.com/scoped' });
    const routes = scopeMatrix(short, randomUUID());
    const keys = new Map<ApiKeyScope, string>();
    for (const scope of API_KEY_SCOPES) {
      keys.set(scope, (await newKey(alice, { name: `only ${scope}`, scopes: [scope] })).key);
    }
    const everything = (await newKey(alice, { name: 'every scope', scopes: [...API_KEY_SCOPES] }))
      .key;
    const wrong: string[] = [];
    for (const r of routes) {
      for (const [scope, key] of [...keys, ['*' as const, everything] as const]) {
        const res = await withKey(t, key, r.method, r.path, r.body);
        const refused = res.status === 403 && (await errorKeyOf(res)) === 'scope_missing';
        if (res.status !== 403) await res.arrayBuffer().catch(() => undefined);
        const expected = r.scope !== null && scope !== '*' && scope !== r.scope;
        if (refused !== expected) {
          wrong.push(`${scope} ${r.method} ${r.path}: ${res.status} (refused: ${refused})`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the route list has every operation that names a scope (a new scoped endpoint adds its row)', () => {
    const scoped = scopedOperations(t);
    const listed = new Map(
      scopeMatrix({ id: 'id', code: 'code' }, 'none').map((r) => [r.op, r.scope]),
    );
    expect(scoped.filter(([op]) => !listed.has(op)).map(([op]) => op)).toEqual([]);
    // and each row names the scope the route declares
    expect(scoped.filter(([op, scope]) => listed.get(op) !== scope)).toEqual([]);
    // every one of them is a documented operation
    const doc = JSON.parse(readFileSync(join(__dirname, '../../openapi/openapi.json'), 'utf8')) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const documented = new Set(
      Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId)),
    );
    expect(scoped.map(([op]) => op).filter((op) => !documented.has(op))).toEqual([]);
    expect(scoped.length).toBeGreaterThan(25);
  });
});

describe('API keys on two instances sharing one database', () => {
  const db = useTestDatabase();
  const env = () => ({ ...db.env, AUTH_DEV_LOGIN: 'true' });
  const a = useTestApp(env);
  const b = useTestApp(env);
  const alice = useLogin(a, 'alice');

  it('a key revoked on one instance is refused by the other within 1 s', async () => {
    const k = await newKey(alice, { name: 'shared', scopes: ['shorts:read'] });
    const before = await withKey(b, k.key, 'GET', '/api/code');
    expect(before.status).toBe(200);
    await before.arrayBuffer();
    expect((await alice.delete(`/api/self/apikeys/${k.id}`)).status).toBe(204);
    const revokedAt = Date.now();
    let status = 0;
    while (Date.now() - revokedAt < 1000) {
      const res = await withKey(b, k.key, 'GET', '/api/code');
      status = res.status;
      await res.arrayBuffer();
      if (status === 401) break;
      await pause(20); // polls the other instance
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(1000);
  });

  it('a member removed on one instance: his team key is refused by the other within 1 s', async () => {
    const bob = await loginAs(a, 'bob');
    const created = await alice.post('/api/teams', { name: 'Zwei Instanzen' });
    expect(created.status).toBe(201);
    const team = ((await created.json()) as { id: string }).id;
    const invite = await alice.post(`/api/teams/${team}/invites`, { role: 'editor' });
    expect(invite.status).toBe(201);
    const { token } = (await invite.json()) as { token: string };
    expect((await bob.fetch(`/api/invites/${token}`, { method: 'POST' })).status).toBe(200);
    const k = await newKey(bob, { name: 'team on b', scopes: ['shorts:read'], team });
    const owners = await newKey(alice, {
      name: 'team of the owner',
      scopes: ['shorts:read'],
      team,
    });
    const before = await withKey(b, k.key, 'GET', '/api/code');
    expect(before.status).toBe(200);
    await before.arrayBuffer();

    expect((await alice.delete(`/api/teams/${team}/members/${bob.userId}`)).status).toBe(204);
    const removedAt = Date.now();
    const refused = await waitFor(
      async () => {
        const res = await withKey(b, k.key, 'GET', '/api/code');
        return res.status === 401 ? res : void (await res.arrayBuffer());
      },
      { timeoutMs: 1000, intervalMs: 20, message: "instance b refusing the removed member's key" },
    );
    expect(Date.now() - removedAt).toBeLessThan(1000);
    expect((await expectProblem(refused, 401)).errorKey).toBe('api_key_invalid');
    // the owner's key of the same team still works there: only the removed member's key ended
    const still = await withKey(b, owners.key, 'GET', '/api/code');
    expect(still.status).toBe(200);
    await still.arrayBuffer();
  });

  it('lastUsedAt: instances sharing the database change it once a minute, not once each', async () => {
    const k = await newKey(alice, { name: 'used on both', scopes: ['shorts:read'] });
    const lastUsed = async () =>
      (await listKeys(alice)).find((x) => x.id === k.id)?.lastUsedAt ?? null;
    const onA = await withKey(a, k.key, 'GET', '/api/code');
    expect(onA.status).toBe(200);
    await onA.arrayBuffer();
    const first = await waitFor(lastUsed, {
      timeoutMs: 2000,
      intervalMs: 20,
      message: 'lastUsedAt written by instance a',
    });
    for (let i = 0; i < 3; i++) {
      const onB = await withKey(b, k.key, 'GET', '/api/code');
      expect(onB.status).toBe(200);
      await onB.arrayBuffer();
    }
    await pause(300); // time for instance b's write, which must change nothing
    expect(await lastUsed()).toBe(first);
    // a's value is less than a minute old: written by a, left by b
    expect(Date.parse(first)).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('API keys: creates are rate limited per user', () => {
  const t = useTestApp({ AUTH_DEV_LOGIN: 'true', LIMIT_USER_CREATE: '2/min' });
  const alice = useLogin(t, 'alice');
  const bob = useLogin(t, 'bob');

  it('counts key creates against LIMIT_USER_CREATE (429 rate_limited, nothing written)', async () => {
    await newKey(alice, { name: 'one', scopes: ['shorts:read'] });
    await newKey(alice, { name: 'two', scopes: ['shorts:read'] });
    const third = await createKey(alice, { name: 'three', scopes: ['shorts:read'] });
    expect((await expectProblem(third, 429)).errorKey).toBe('rate_limited');
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await listKeys(alice)).map((k) => k.name)).toEqual(['one', 'two']);
    // per user
    await newKey(bob, { name: 'one', scopes: ['shorts:read'] });
  });
});
