import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FollowService } from '../../src/follow/follow.service';
import { CLIENT_ROUTES } from '../../src/shared/client-routes';
import { useTestApp } from '../support/app';
import { useLogin } from '../support/login';
import { createShort, tryCreate } from '../support/shorts';

/** A built client: index.html, the favicon and one hashed asset. */
function webDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'web-root-follow-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html lang="de"><head><!--runtime-config--></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dir, 'assets', 'index-AbCd1234.js'), 'console.log(1);\n');
  return dir;
}

describe('/{code} on the main host (CONTRACT "Following a short")', () => {
  let dir = '';
  beforeAll(() => {
    dir = webDir();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const t = useTestApp(() => ({ WEB_DIR: dir, AUTH_DEV_LOGIN: 'true' }));
  const alice = useLogin(t, 'alice');
  afterEach(() => vi.restoreAllMocks());

  it('follows exactly as /s/{code} does; shortUrl stays /s/{code}', async () => {
    const { code, shortUrl } = await createShort(t, { url: 'https://example.com/root' });
    expect(shortUrl).toBe(`${t.config.baseUrl}/s/${code}`);
    for (const path of [`/${code}`, `/${code}/`, `/${code}?utm=x`]) {
      const res = await t.fetch(path);
      expect(res.status, path).toBe(302);
      expect(res.headers.get('location'), path).toBe('https://example.com/root');
      expect(res.headers.get('cache-control'), path).toContain('no-store');
      expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
    }
    const head = await t.fetch(`/${code}`, { method: 'HEAD' });
    expect(head.status).toBe(302);
  });

  it('keeps every rule of the follow: a password-protected short goes to the password page', async () => {
    const { code } = await createShort(t, { url: 'https://example.com/secret', password: 'pw' });
    const res = await t.fetch(`/${code}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/s/${code}/password-required`);
    const right = await t.fetch(`/${code}?password=pw`);
    expect(right.headers.get('location')).toBe('https://example.com/secret');
  });

  it('an unknown code answers as /s/{code} does for one: 302 to its not-found page', async () => {
    const root = await t.fetch('/zzzzzzz');
    const viaS = await t.fetch('/s/zzzzzzz');
    expect(viaS.status).toBe(302);
    expect(root.status).toBe(viaS.status);
    expect(root.headers.get('location')).toBe('/s/zzzzzzz/not-found');
    expect(root.headers.get('location')).toBe(viaS.headers.get('location'));
  });

  it("never looks up a client route, a reserved word or a file as a code: the client's pages and files stay", async () => {
    const follow = vi.spyOn(t.app.get(FollowService), 'follow');
    const pages = Object.values(CLIENT_ROUTES)
      .filter((p) => p !== CLIENT_ROUTES.follow)
      .map((p) => p.replace(':code', 'abc1234'));
    for (const path of [...pages, '/Login', '/SHORTS/', '/login?redirect=%2Fshorts', '/assets']) {
      const res = await t.fetch(path);
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toContain('id="runtime-config"');
    }
    const favicon = await t.fetch('/favicon.svg');
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('content-type')).toContain('image/svg+xml');
    const asset = await t.fetch('/assets/index-AbCd1234.js');
    expect(asset.status).toBe(200);
    expect((await t.fetch('/robots.txt')).status).toBe(404);
    expect((await t.fetch('/api/frontend')).status).toBe(200);
    expect(follow).not.toHaveBeenCalled();
    // A code is looked up (the spy sees it), so the spy would have seen the others.
    await t.fetch('/zzzzzzy');
    expect(follow).toHaveBeenCalledTimes(1);
  });

  it('no custom code can take a client route or a reserved word', async () => {
    for (const code of ['login', 'Shorts', 'account', 'admin', 'service', 'assets', 'api']) {
      const res = await alice.post('/api/code', { url: 'https://example.com/x', code });
      expect(res.status, code).toBe(400);
      expect(
        ((await res.json()) as { fieldErrors: Record<string, string> }).fieldErrors,
        code,
      ).toHaveProperty('code');
    }
    const taken = await tryCreate(alice, { url: 'https://example.com/x', code: 'my-launch' });
    expect(taken.status).toBe(201);
    const res = await t.fetch('/my-launch');
    expect(res.headers.get('location')).toBe('https://example.com/x');
  });

  it("an anonymous page load's account check answers 200: /api/logged-in, no 401", async () => {
    const res = await t.fetch('/api/logged-in');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ loggedIn: false });
    const logged = await alice.fetch('/api/logged-in');
    expect(await logged.json()).toEqual({ loggedIn: true });
  });
});
