import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '../../src/common/paging';
import { useTestApp } from '../support/app';
import { loginAs, useLogin } from '../support/login';

type AnyPage = Page<Record<string, unknown>>;

/** Every admin and management route except the public health ones, with a body where needed. */
const PROTECTED: Array<{ method: string; path: string; body?: unknown }> = [
  { method: 'GET', path: '/api/admin/entity' },
  { method: 'POST', path: '/api/admin/entity/users/search', body: { query_string: { query: '' } } },
  {
    method: 'POST',
    path: '/api/admin/entity/shorts/search',
    body: { query_string: { query: '' } },
  },
  { method: 'PUT', path: `/api/admin/entity/shorts/${randomUUID()}`, body: { dangerous: true } },
  {
    method: 'PUT',
    path: `/api/admin/entity/blacklist/${randomUUID()}`,
    body: { kind: 'host', value: 'x.example' },
  },
  { method: 'DELETE', path: `/api/admin/entity/users/${randomUUID()}` },
  { method: 'GET', path: '/management/info' },
  { method: 'GET', path: '/management/mappings' },
  { method: 'GET', path: '/management/env' },
  { method: 'GET', path: '/management/logs' },
  { method: 'GET', path: '/management/loggers' },
  { method: 'GET', path: '/management/loggers/ROOT' },
  { method: 'POST', path: '/management/loggers/ROOT', body: { configuredLevel: 'TRACE' } },
  { method: 'GET', path: '/management/prometheus' },
];

describe('admin entity API', () => {
  const t = useTestApp({ AUTH_DEV_LOGIN: 'true', ADMIN_USERS: 'dev:admin' });
  const admin = useLogin(t, 'admin');
  const alice = useLogin(t, 'alice');

  const search = (entity: string, query: string, qs = '') =>
    admin.post(`/api/admin/entity/${entity}/search${qs}`, { query_string: { query } });

  /** Alice's new short (201), found by its code in the admin search: its id. */
  async function aliceShort(body: { url: string; code: string; name?: string }): Promise<string> {
    expect((await alice.post('/api/code', body)).status).toBe(201);
    const found = (await (await search('shorts', `code:${body.code}`)).json()) as Page<{
      id: string;
    }>;
    return found.content[0].id;
  }

  async function names(query: string): Promise<string[]> {
    const res = await search('shorts', query, '?size=250&sort=name,asc');
    expect(res.status).toBe(200);
    return ((await res.json()) as Page<{ name: string }>).content.map((s) => s.name);
  }

  describe('refuses anonymous callers (401) and normal users (403), route by route', () => {
    for (const r of PROTECTED) {
      it(`${r.method} ${r.path}`, async () => {
        const init = (headers: Record<string, string>): RequestInit => ({
          method: r.method,
          headers:
            r.body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
          body: r.body === undefined ? undefined : JSON.stringify(r.body),
        });
        const anon = await t.fetch(r.path, init({}));
        expect(anon.status).toBe(401);
        expect(anon.headers.get('content-type')).toContain('application/problem+json');
        const user = await t.fetch(r.path, init({ cookie: alice.cookie, origin: t.url }));
        expect(user.status).toBe(403);
      });
    }
    it('the public health answers anonymous callers with the status only', async () => {
      for (const path of [
        '/management/health',
        '/management/health/liveness',
        '/management/health/readiness',
      ]) {
        const res = await t.fetch(path);
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ status: 'UP' });
        const user = await t.fetch(path, { headers: { cookie: alice.cookie } });
        expect(await user.json()).toEqual({ status: 'UP' });
      }
    });
  });

  it('lists the entities with field descriptions and never a secret column', async () => {
    const res = await admin.fetch('/api/admin/entity');
    expect(res.status).toBe(200);
    const entities = (await res.json()) as Array<{
      name: string;
      fields: Array<{ name: string; type: string; description: string }>;
    }>;
    expect(entities.map((e) => e.name)).toEqual([
      'users',
      'shorts',
      'reports',
      'blacklist',
      'apikeys',
      'domains',
      'teams',
      'pages',
    ]);
    for (const e of entities)
      for (const f of e.fields) expect(f.description.length).toBeGreaterThan(0);
    const fieldNames = entities.flatMap((e) => e.fields.map((f) => f.name.toLowerCase()));
    expect(fieldNames.filter((n) => /hash|encrypt|secret|password|key$|token/.test(n))).toEqual([
      'haspassword',
    ]);
    const apikeys = entities.find((e) => e.name === 'apikeys');
    expect(apikeys?.fields.map((f) => f.name)).toEqual([
      'id',
      'userId',
      'user',
      'name',
      'prefix',
      'scopes',
      'teamId',
      'createdAt',
      'expiresAt',
      'lastUsedAt',
    ]);
  });

  it('shows API keys without the key, its hash or its encrypted copy', async () => {
    const put = await alice.put('/api/self/apikey');
    expect(put.status).toBeLessThan(300);
    const keyText = await put.text();
    const res = await search('apikeys', `user:alice`);
    expect(res.status).toBe(200);
    const page = (await res.json()) as AnyPage;
    expect(page.totalElements).toBe(1);
    expect(Object.keys(page.content[0]).sort()).toEqual([
      'createdAt',
      'expiresAt',
      'id',
      'lastUsedAt',
      'name',
      'prefix',
      'scopes',
      'teamId',
      'user',
      'userId',
    ]);
    expect(page.content[0]).toMatchObject({
      name: 'ShareX',
      scopes: ['shorts:read', 'shorts:write'],
      teamId: null,
      expiresAt: null,
    });
    const raw = JSON.stringify(page);
    const key = /"(?:id|key|apiKey)"\s*:\s*"([^"]{20,})"/.exec(keyText)?.[1];
    if (key) expect(raw).not.toContain(key);
    const del = await admin.delete(`/api/admin/entity/apikeys/${page.content[0].id as string}`);
    expect(del.status).toBe(204);
    expect(((await (await search('apikeys', 'user:alice')).json()) as AnyPage).totalElements).toBe(
      0,
    );
  });

  describe('search', () => {
    const tricky = [
      '100% off',
      '1000 off',
      'a_b',
      'axb',
      "it's",
      'back\\slash',
      'backslash',
      ')) OR 1=1--',
      'plain',
    ];

    beforeAll(async () => {
      for (const name of tricky) {
        const res = await alice.post('/api/code', {
          url: `https://example.com/${encodeURIComponent(name)}`,
          name,
        });
        expect(res.status).toBe(201);
      }
    });

    it('treats %, _, quote, backslash and SQL as data', async () => {
      expect(await names('name:"100%"')).toEqual(['100% off']);
      expect(await names('name:"a_b"')).toEqual(['a_b']);
      expect(await names('name:a_*')).toEqual(['a_b']);
      expect(await names(`name:"it's"`)).toEqual(["it's"]);
      expect(await names('name:"back\\\\slash"')).toEqual(['back\\slash']);
      expect(await names('name:")) OR 1=1--"')).toEqual([')) OR 1=1--']);
      expect(await names(`name:"') OR '1'='1"`)).toEqual([]);
      expect(await names('"1=1"')).toEqual([')) OR 1=1--']);
    });

    it('answers 400 (never 5xx) for unparsable input, with a clear detail', async () => {
      for (const q of [')) OR 1=1--', '%', '\\', "'", 'name:(a', 'name:"open']) {
        const res = await search('shorts', q);
        expect(res.status, q).toBe(400);
        const p = (await res.json()) as { detail: string };
        expect(p.detail).toMatch(/^Query syntax error/);
      }
    });

    it('supports fields, phrases, AND/OR/NOT, wildcards, comparisons and free text', async () => {
      expect(await names('name:plain OR name:axb')).toEqual(['axb', 'plain']);
      expect(await names('owner:alice AND NOT name:*off*')).toEqual(
        ['a_b', 'axb', "it's", 'back\\slash', 'backslash', ')) OR 1=1--', 'plain'].sort(),
      );
      expect(await names('-name:*a* AND owner:alice')).toEqual(
        ['1000 off', '100% off', ')) OR 1=1--', "it's"].sort(),
      );
      expect(
        await names('uses:>=0 AND dangerous:false AND hasPassword:false AND name:plain'),
      ).toEqual(['plain']);
      expect(await names('plain')).toEqual(['plain']);
      expect(await names('url:*a_b')).toEqual(['a_b']);
    });

    it('treats a missing body or query as "everything" and refuses a malformed body', async () => {
      const none = await admin.fetch('/api/admin/entity/shorts/search', { method: 'POST' });
      expect(none.status).toBe(200);
      expect(((await none.json()) as AnyPage).totalElements).toBeGreaterThanOrEqual(9);
      const empty = await admin.post('/api/admin/entity/shorts/search', {});
      expect(empty.status).toBe(200);
      const wrong = await admin.post('/api/admin/entity/shorts/search', {
        query_string: { query: 42 },
      });
      expect(wrong.status).toBe(400);
      const extra = await admin.post('/api/admin/entity/shorts/search', {
        query_string: { query: '' },
        sql: 'x',
      });
      expect(extra.status).toBe(400);
    });

    it('refuses unknown fields and wrong value types with 400', async () => {
      const unknown = await search('shorts', 'password_hash:x');
      expect(unknown.status).toBe(400);
      expect(((await unknown.json()) as { detail: string }).detail).toContain(
        'Unknown field "password_hash" for shorts',
      );
      expect((await search('shorts', 'uses:abc')).status).toBe(400);
      expect((await search('shorts', 'name:/re/')).status).toBe(400);
      expect((await search('nope', '')).status).toBe(404);
    });

    it('pages and sorts per the contract, refusing unknown sort fields', async () => {
      const res = await search('shorts', 'owner:alice', '?page=1&size=4&sort=name,desc');
      expect(res.status).toBe(200);
      const page = (await res.json()) as Page<{ name: string }>;
      expect(page).toMatchObject({
        number: 1,
        size: 4,
        numberOfElements: 4,
        totalElements: 9,
        totalPages: 3,
        first: false,
        last: false,
        empty: false,
      });
      const desc = [...tricky].sort().reverse();
      expect(page.content.map((s) => s.name)).toEqual(desc.slice(4, 8));
      expect((await search('shorts', '', '?sort=name;DROP TABLE shorts,asc')).status).toBe(400);
      const capped = await search('shorts', '', '?size=251');
      expect(capped.status).toBe(200);
      expect(((await capped.json()) as AnyPage).size).toBe(250);
      expect((await search('shorts', '', '?page=-1')).status).toBe(400);
    });
  });

  it('edits users (roles, activated) and refuses unknown fields', async () => {
    const bob = await loginAs(t, 'bob');
    const res = await admin.put(`/api/admin/entity/users/${bob.userId}`, {
      roles: ['ROLE_USER', 'ROLE_TEAM'],
      activated: false,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      username: 'bob',
      roles: ['ROLE_USER', 'ROLE_TEAM'],
      activated: false,
    });
    // The change applies to bob's next request (the session reads the user each time).
    expect((await bob.fetch('/api/admin/entity')).status).toBe(403);
    const promoted = await admin.put(`/api/admin/entity/users/${bob.userId}`, {
      roles: ['ROLE_USER', 'ROLE_ADMIN'],
      activated: true,
    });
    expect(promoted.status).toBe(200);
    expect((await bob.fetch('/api/admin/entity')).status).toBe(200);
    const bad = await admin.put(`/api/admin/entity/users/${bob.userId}`, {
      roles: ['ROLE_GOD'],
      nope: 1,
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(((await bad.json()) as { fieldErrors: object }).fieldErrors).sort()).toEqual(
      ['nope', 'roles'],
    );
    const self = await admin.put(`/api/admin/entity/users/${admin.userId}`, {
      roles: ['ROLE_USER'],
    });
    expect(self.status).toBe(400);
    expect(
      (await admin.put(`/api/admin/entity/users/${randomUUID()}`, { activated: true })).status,
    ).toBe(404);
  });

  it('deletes a short; its follow answers not-found at once', async () => {
    const created = await alice.post('/api/code', {
      url: 'https://example.com/to-delete',
      code: 'adm-delete-me',
    });
    expect(created.status).toBe(201);
    expect((await t.fetch('/api/code/adm-delete-me')).headers.get('location')).toBe(
      'https://example.com/to-delete',
    );
    const found = (await (await search('shorts', 'code:adm-delete-me')).json()) as Page<{
      id: string;
    }>;
    expect(found.totalElements).toBe(1);
    const del = await admin.delete(`/api/admin/entity/shorts/${found.content[0].id}`);
    expect(del.status).toBe(204);
    expect((await t.fetch('/api/code/adm-delete-me')).headers.get('location')).toBe(
      '/s/adm-delete-me/not-found',
    );
    expect((await admin.delete(`/api/admin/entity/shorts/${found.content[0].id}`)).status).toBe(
      404,
    );
  });

  it('edits shorts within the column limits (name, maxUses, expireAt)', async () => {
    const id = await aliceShort({ url: 'https://example.com/edit-me', code: 'adm-edit-me' });
    const expireAt = new Date(Date.now() + 86_400_000).toISOString();
    const ok = await admin.put(`/api/admin/entity/shorts/${id}`, {
      name: 'renamed',
      maxUses: 1,
      expireAt,
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ name: 'renamed', maxUses: 1, expireAt });
    for (const body of [
      { name: 'n'.repeat(101) },
      { maxUses: 2 ** 31 },
      { maxUses: 0 },
      { expireAt: 'soon' },
      { url: 'https://x.example' },
    ]) {
      const res = await admin.put(`/api/admin/entity/shorts/${id}`, body);
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
    }
    // maxUses 1 applies to the follow at once: one use, then not-found.
    expect((await t.fetch('/api/code/adm-edit-me')).headers.get('location')).toBe(
      'https://example.com/edit-me',
    );
    expect((await t.fetch('/api/code/adm-edit-me')).headers.get('location')).toBe(
      '/s/adm-edit-me/not-found?reason=used-up',
    );
  });

  it('refuses an admin edit of a short with the field errors and keys its owner gets, and changes nothing', async () => {
    const id = await aliceShort({
      url: 'https://example.com/checked',
      code: 'adm-checked',
      name: 'kept',
    });
    const before = await (await admin.fetch(`/api/code/adm-checked?redirect=false`)).json();
    const past = new Date(Date.now() - 60_000).toISOString();
    for (const body of [
      { name: 'n'.repeat(101) },
      { maxUses: 'many' },
      { maxUses: 0 },
      { expireAt: 'soon' },
      { expireAt: past },
      { expiredUrl: 'javascript:alert(1)' },
      { expiredUrl: `${t.url}/s/adm-checked` },
      { expiredUrl: 42 },
      { name: 'ok', expiredUrl: 'ftp://example.com/' },
    ]) {
      const label = JSON.stringify(body).slice(0, 60);
      const asAdmin = await admin.put(`/api/admin/entity/shorts/${id}`, body);
      const asOwner = await alice.patch(`/api/code/${id}`, body);
      expect(asAdmin.status, label).toBe(400);
      const problem = (await asAdmin.json()) as Record<string, unknown>;
      const owners = (await asOwner.json()) as Record<string, unknown>;
      expect(asOwner.status, label).toBe(400);
      for (const key of ['errorKey', 'detail', 'fieldErrors', 'fieldErrorKeys'])
        expect(problem[key], `${label}: ${key}`).toEqual(owners[key]);
      expect(problem.errorKey, label).not.toBe('bad_request');
    }
    expect(await (await admin.fetch(`/api/code/adm-checked?redirect=false`)).json()).toEqual(
      before,
    );

    // What the admin area itself refuses says so by its key.
    const readOnly = await admin.put(`/api/admin/entity/shorts/${id}`, {
      url: 'https://x.example',
      nope: 1,
    });
    expect(readOnly.status).toBe(400);
    expect(await readOnly.json()).toMatchObject({
      errorKey: 'validation_failed',
      fieldErrorKeys: { url: 'field_read_only', nope: 'field_unknown' },
    });
    const unknown = await admin.put(`/api/admin/entity/gadgets/${id}`, { name: 'x' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ errorKey: 'entity_unknown' });
    const notObject = await admin.put(`/api/admin/entity/shorts/${id}`, ['x']);
    expect(notObject.status).toBe(400);
    expect(await notObject.json()).toMatchObject({ errorKey: 'body_not_object' });

    // A valid edit of another user's short passes the same checks and reaches the follow.
    const ok = await admin.put(`/api/admin/entity/shorts/${id}`, {
      expiredUrl: 'https://example.com/ended',
      maxUses: 1,
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      expiredUrl: 'https://example.com/ended',
      maxUses: 1,
      domain: '',
      rules: null,
    });
    expect((await t.fetch('/api/code/adm-checked')).headers.get('location')).toBe(
      'https://example.com/checked',
    );
    expect((await t.fetch('/api/code/adm-checked')).headers.get('location')).toBe(
      'https://example.com/ended',
    );
  });

  it('lists every field of a short that the field table gives the admin area', async () => {
    const entities = (await (await admin.fetch('/api/admin/entity')).json()) as Array<{
      name: string;
      fields: Array<{ name: string; editable: boolean }>;
    }>;
    const shorts = entities.find((e) => e.name === 'shorts');
    // The table's fields without a place of their own come after expireAt, in the table's order.
    const names = shorts?.fields.map((f) => f.name).join(' ');
    expect(names).toBe(
      'id code name url hasPassword maxUses uses createdAt expireAt domain expiredUrl rules team tags preview qrStyle ownerId owner dangerous dangerReason',
    );
    expect(shorts?.fields.filter((f) => f.editable).map((f) => f.name)).toEqual(
      'name maxUses expireAt expiredUrl tags preview dangerous dangerReason'.split(' '),
    );
  });
});
