import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app';
import { loginAs, useLogin } from '../support/login';

const STATE_METHODS = ['post', 'put', 'patch', 'delete'] as const;

describe('CSRF: cookie-authenticated state changes need same origin and JSON', () => {
  const t = useTestApp({ AUTH_DEV_LOGIN: 'true', ADMIN_USERS: 'dev:admin' });
  const admin = useLogin(t, 'admin');
  let routes: { method: string; path: string }[];

  beforeAll(async () => {
    // Every documented state-changing route, with dummy path parameters.
    const doc = (await (await t.fetch('/api/docs-json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    routes = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const m of STATE_METHODS) {
        if (ops[m]) {
          routes.push({
            method: m.toUpperCase(),
            path: path
              .replace(/\{id\}/g, '00000000-0000-4000-8000-000000000000')
              .replace(/\{[^}]+\}/g, 'x'),
          });
        }
      }
    }
  });

  it('the documented routes include the known state changes', () => {
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        'POST /api/code',
        'DELETE /api/code/00000000-0000-4000-8000-000000000000',
        'PUT /api/self/apikey',
        'POST /api/logout',
      ]),
    );
  });

  it('a foreign Origin is refused with 403 on every state-changing route', async () => {
    for (const r of routes) {
      const res = await t.fetch(r.path, {
        method: r.method,
        headers: {
          cookie: admin.cookie,
          origin: 'https://evil.example',
          'content-type': 'application/json',
        },
        body: r.method === 'DELETE' ? undefined : '{}',
      });
      expect(res.status, `${r.method} ${r.path}`).toBe(403);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
  });

  it('a form content type is refused with 403 even from the same origin', async () => {
    for (const type of [
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'text/plain',
    ]) {
      // The one exception, tested below: the password page's form posts to the follow.
      for (const r of routes.filter((r) => r.path !== '/s/x')) {
        const res = await t.fetch(r.path, {
          method: r.method,
          headers: { cookie: admin.cookie, origin: t.url, 'content-type': type },
          body: 'a=b',
        });
        expect(res.status, `${type} ${r.method} ${r.path}`).toBe(403);
      }
    }
  });

  it('POST /s/{code} (the password form) takes a same-origin form with the cookie, refuses it cross-site', async () => {
    const form = { cookie: admin.cookie, 'content-type': 'application/x-www-form-urlencoded' };
    const post = (headers: Record<string, string>) =>
      t.fetch('/s/x', { method: 'POST', headers: { ...form, ...headers }, body: 'password=a' });
    // Same origin: the follow's answer (an unknown code), not a refusal.
    expect((await post({ origin: t.url })).status).toBe(303);
    expect((await post({ 'sec-fetch-site': 'same-origin' })).status).toBe(303);
    const refusals: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      {},
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'none' },
    ];
    for (const headers of refusals) {
      const res = await post(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(((await res.json()) as { errorKey: string }).errorKey).toBe('cross_site_refused');
    }
  });

  it('no Origin and no Sec-Fetch-Site is refused; Sec-Fetch-Site: same-site or cross-site too', async () => {
    for (const site of [undefined, 'same-site', 'cross-site', 'none']) {
      const headers: Record<string, string> = {
        cookie: admin.cookie,
        'content-type': 'application/json',
      };
      if (site) headers['sec-fetch-site'] = site;
      const res = await t.fetch('/api/code', {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: 'https://example.com/' }),
      });
      expect(res.status, String(site)).toBe(403);
    }
    const nullOrigin = await admin.from('null').post('/api/code', { url: 'https://example.com/' });
    expect(nullOrigin.status).toBe(403);
  });

  it('same-origin JSON passes: Origin, or Sec-Fetch-Site: same-origin', async () => {
    const viaOrigin = await admin.post('/api/code', { url: 'https://example.com/ok' });
    expect(viaOrigin.status).toBe(201);
    const viaFetchSite = await t.fetch('/api/code', {
      method: 'POST',
      headers: {
        cookie: admin.cookie,
        'sec-fetch-site': 'same-origin',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ url: 'https://example.com/ok2' }),
    });
    expect(viaFetchSite.status).toBe(201);
    // BASE_URL's origin is accepted too (the default BASE_URL here is http://localhost:8080)
    const viaBase = await admin
      .from('http://localhost:8080')
      .post('/api/code', { url: 'https://example.com/ok3' });
    expect(viaBase.status).toBe(201);
    // bodiless state changes need no content type
    const put = await t.fetch('/api/self/apikey', {
      method: 'PUT',
      headers: { cookie: admin.cookie, origin: t.url },
    });
    expect(put.status).toBe(200);
  });

  it('anonymous calls without a session cookie are not CSRF-relevant (curl, ShareX)', async () => {
    const res = await t.fetch('/api/code', {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/anon' }),
    });
    expect(res.status).toBe(201);
    const plain = await t.post('/api/code', { url: 'https://example.com/curl' });
    expect(plain.status).toBe(201);
  });

  it('a refused logout leaves the session alive', async () => {
    const u = await loginAs(t, 'victim');
    const res = await t.fetch('/api/logout', {
      method: 'POST',
      headers: { cookie: u.cookie, origin: 'https://evil.example' },
    });
    expect(res.status).toBe(403);
    expect((await t.fetch('/api/account', { headers: { cookie: u.cookie } })).status).toBe(200);
  });
});
