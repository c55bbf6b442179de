import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app';
import { type LoggedIn, useLogin } from '../support/login';

describe('API key and ShareX', () => {
  const t = useTestApp({ AUTH_DEV_LOGIN: 'true' });
  const alice = useLogin(t, 'alice');
  const bob = useLogin(t, 'bob');

  const bearer = (key: string, extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${key}`,
    'content-type': 'application/json',
    ...extra,
  });
  /** A POST with a JSON body and a Bearer key (as ShareX sends it); `extra` headers on top. */
  const postWithKey = (
    key: string,
    path: string,
    body: unknown,
    extra: Record<string, string> = {},
  ) => t.fetch(path, { method: 'POST', headers: bearer(key, extra), body: JSON.stringify(body) });
  const keyOf = async (u: LoggedIn) =>
    ((await (await u.fetch('/api/self/apikey')).json()) as { id: string }).id;

  it('needs a login', async () => {
    expect((await t.fetch('/api/self/apikey')).status).toBe(401);
    expect((await t.fetch('/api/self/apikey', { method: 'PUT' })).status).toBe(401);
  });

  it('404 before the first PUT; PUT creates a 256-bit key with a prefix; GET reveals it', async () => {
    const none = await alice.fetch('/api/self/apikey');
    expect(none.status).toBe(404);
    const put = await alice.put('/api/self/apikey');
    expect(put.status).toBe(200);
    const { id } = (await put.json()) as { id: string };
    expect(id).toMatch(/^us_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(id.slice(3), 'base64url')).toHaveLength(32);
    const got = (await (await alice.fetch('/api/self/apikey')).json()) as { id: string };
    expect(got.id).toBe(id);
  });

  it('the database holds no clear key: a SHA-256 hash and an encrypted copy', async () => {
    const key = await keyOf(alice);
    const rows = (await t.query('SELECT * FROM api_keys')) as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(key);
    expect(dump).not.toContain(key.slice(3));
    expect(dump).not.toContain(Buffer.from(key, 'utf8').toString('base64'));
    expect(rows[0].key_hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(String(rows[0].key_encrypted)).toMatch(/^v1\./);
  });

  it('ShareX: POST /api/code/ with Bearer and {url} answers {code}, owned by the key’s user', async () => {
    const key = await keyOf(alice);
    const res = await postWithKey(key, '/api/code/', { url: 'https://example.com/sharex.png' });
    expect(res.status).toBe(201);
    const { code } = (await res.json()) as { code: string };
    const info = (await (await t.fetch(`/api/code/${code}?redirect=false`)).json()) as {
      owner: { username: string };
    };
    expect(info.owner.username).toBe('alice');
    // logged-in abilities through the key (custom code, no 24 h limit)
    const custom = await postWithKey(key, '/api/code', {
      url: 'https://example.com/k',
      code: 'by-key',
    });
    expect(custom.status).toBe(201);
    // the own list works with the key as well
    const list = (await (
      await t.fetch('/api/code', { headers: { authorization: `Bearer ${key}` } })
    ).json()) as {
      totalElements: number;
    };
    expect(list.totalElements).toBe(2);
  });

  it('ShareX error answers carry `error`', async () => {
    const key = await keyOf(alice);
    const res = await postWithKey(key, '/api/code/', { url: 'nope' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string };
    expect(typeof body.error).toBe('string');
    expect(body.error.length).toBeGreaterThan(0);
  });

  it('an unknown key is 401 with `error`', async () => {
    const res = await postWithKey('us_' + 'A'.repeat(43), '/api/code/', {
      url: 'https://example.com/x',
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBe('Invalid API key');
  });

  it('renewing makes the old key fail at once', async () => {
    const oldKey = await keyOf(alice);
    const renewed = (await (await alice.put('/api/self/apikey')).json()) as { id: string };
    expect(renewed.id).not.toBe(oldKey);
    const old = await postWithKey(oldKey, '/api/code', { url: 'https://example.com/o' });
    expect(old.status).toBe(401);
    const fresh = await postWithKey(renewed.id, '/api/code', { url: 'https://example.com/n' });
    expect(fresh.status).toBe(201);
    const rows = await t.query('SELECT COUNT(*) AS n FROM api_keys');
    expect(Number(rows[0].n)).toBe(1);
  });

  it('a key in the query string is never accepted', async () => {
    const key = await keyOf(alice);
    for (const name of ['api_key', 'apikey', 'access_token']) {
      const res = await t.fetch(`/api/code?${name}=${key}`);
      expect(res.status, name).toBe(400);
      const post = await t.post(`/api/code/?${name}=${key}`, { url: 'https://example.com/q' });
      expect(post.status, name).toBe(400);
    }
    expect((await t.fetch(`/api/account?api_key=${key}`)).status).toBe(400);
  });

  it('Bearer calls ignore cookies and skip the CSRF check', async () => {
    const key = await keyOf(alice);
    // bob's cookie plus alice's key, from a foreign origin: acts as alice, not refused
    const res = await postWithKey(
      key,
      '/api/code',
      { url: 'https://example.com/mixed' },
      { cookie: bob.cookie, origin: 'https://evil.example' },
    );
    expect(res.status).toBe(201);
    const { code } = (await res.json()) as { code: string };
    const info = (await (await t.fetch(`/api/code/${code}?redirect=false`)).json()) as {
      owner: { username: string };
    };
    expect(info.owner.username).toBe('alice');
    const acc = (await (
      await t.fetch('/api/account', { headers: bearer(key, { cookie: bob.cookie }) })
    ).json()) as {
      username: string;
    };
    expect(acc.username).toBe('alice');
    // a bad key with a good cookie is still refused (no fallback to the cookie)
    const bad = await t.fetch('/api/account', {
      headers: { authorization: 'Bearer us_nope', cookie: bob.cookie },
    });
    expect(bad.status).toBe(401);
  });

  it('each user has their own key', async () => {
    const b = (await (await bob.put('/api/self/apikey')).json()) as { id: string };
    const a = (await (await alice.fetch('/api/self/apikey')).json()) as { id: string };
    expect(b.id).not.toBe(a.id);
    const acc = (await (
      await t.fetch('/api/account', { headers: { authorization: `Bearer ${b.id}` } })
    ).json()) as {
      username: string;
    };
    expect(acc.username).toBe('bob');
  });
});
