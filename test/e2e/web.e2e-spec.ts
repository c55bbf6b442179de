import { request } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../src/web/precompress';
import { type TestApp, useTestApp } from '../support/app';

const JS = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;

function makeWebDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html lang="de"><head><meta name="description" content="URL-Shorter: Teile deine Links einfach und schnell" /><title>URL-Shorter</title><!--runtime-config--></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(join(dir, 'assets', 'index-AbCd1234.js'), JS);
  writeFileSync(join(dir, 'robots.txt'), 'User-agent: *\n');
  writeFileSync(join(dir, 'secret.txt'), 'not outside');
  // As `npm run build` does: a .br and a .gz beside each file that they make smaller.
  precompressDir(dir);
  return dir;
}

/** The web folder of the running block. */
let webDir = '';

/** The test app of a block, serving a web folder made for it (removed after the app is closed). */
function useWebApp(env: Record<string, string>): TestApp {
  let dir = '';
  beforeAll(() => {
    dir = makeWebDir();
    webDir = dir;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return useTestApp(() => ({ WEB_DIR: dir, ...env }));
}

/** Raw GET (no automatic decompression). */
function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

function rawHead(
  url: string,
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'HEAD', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

function island(html: string): Record<string, any> {
  const m = /<script id="runtime-config" type="application\/json">(.*?)<\/script>/s.exec(html);
  expect(m).not.toBeNull();
  return JSON.parse(m![1]) as Record<string, any>;
}

describe('web client serving (embedded flags)', () => {
  const t = useWebApp({
    BASE_URL: 'https://sho.rt',
    FOOTER_IMPRINT_URL: 'https://example.org/impressum',
    FOOTER_SERVICES: 'Wiki=https://wiki.example.org,Status=https://status.example.org',
  });

  it('serves index.html with the runtime-config island and no-cache', async () => {
    const res = await t.fetch('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    const html = await res.text();
    expect(html).not.toContain('<!--runtime-config-->');
    // The island is data, never executed (so script-src 'self' holds).
    expect(html).toMatch(/<script id="runtime-config" type="application\/json">/);
    const rc = island(html);
    expect(rc.version).toBe('1.7.1');
    expect(rc.baseUrl).toBe('https://sho.rt');
    expect(rc.flags).toEqual({
      url: '/api/frontend',
      clientKey: 'url-shorter-embedded',
      refreshSeconds: 15,
      embedded: true,
    });
    expect(rc.sentryDsn).toBeNull();
    // The defaults: live figures, the language switch on (CONTRACT "Configuration").
    expect(rc.homeFigures).toBe('live');
    expect(rc.defaultLanguage).toBe('de');
    expect(rc.languageSwitch).toBe(true);
    expect(html).toContain('<html lang="de">');
    expect(rc.footer.imprintUrl).toBe('https://example.org/impressum');
    expect(rc.footer.privacyUrl).toBeNull();
    expect(rc.footer.services).toEqual([
      { name: 'Wiki', url: 'https://wiki.example.org' },
      { name: 'Status', url: 'https://status.example.org' },
    ]);
  });

  it.each([
    '/s',
    '/s/abc1234/info',
    '/s/abc1234/not-found',
    '/s/abc1234/notFound',
    '/s/abc1234/potentially-dangerous',
    '/s/abc1234/potentiallyDangerous',
    '/s/abc1234/password-required',
    '/s/abc1234/passwordRequired',
    '/s/abc1234/delete',
    '/service/offline',
    '/login',
    '/shorts',
    '/some/unknown/route',
  ])('answers the client route %s with index.html', async (path) => {
    const res = await t.fetch(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toContain('id="runtime-config"');
  });

  it('serves hashed assets as immutable, as built: the .br or .gz beside the file', async () => {
    const br = await rawGet(`${t.url}/assets/index-AbCd1234.js`, {
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(br.status).toBe(200);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-type']).toContain('text/javascript');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(br.body.length).toBeLessThan(JS.length / 4);
    expect(br.headers['content-length']).toBe(String(br.body.length));
    // The very bytes of the build's copy (nothing is compressed in a request).
    expect(br.body.equals(readFileSync(join(webDir, 'assets', 'index-AbCd1234.js.br')))).toBe(true);
    expect(brotliDecompressSync(br.body).toString()).toBe(JS);

    const gz = await rawGet(`${t.url}/assets/index-AbCd1234.js`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-length']).toBe(String(gz.body.length));
    expect(gz.body.equals(readFileSync(join(webDir, 'assets', 'index-AbCd1234.js.gz')))).toBe(true);
    expect(gunzipSync(gz.body).toString()).toBe(JS);

    const plain = await rawGet(`${t.url}/assets/index-AbCd1234.js`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('Accept-Encoding');
    expect(plain.headers['content-length']).toBe(String(JS.length));
    expect(plain.body.toString()).toBe(JS);

    const refused = await rawGet(`${t.url}/assets/index-AbCd1234.js`, {
      'accept-encoding': 'br;q=0, gzip;q=0.5',
    });
    expect(refused.headers['content-encoding']).toBe('gzip');

    // Each representation has its own ETag, and each one revalidates to a 304 that names it.
    const tags = [br, gz, plain].map((r) => String(r.headers.etag));
    expect(new Set(tags).size).toBe(3);
    for (const tag of tags) {
      const again = await rawGet(`${t.url}/assets/index-AbCd1234.js`, {
        'accept-encoding': 'gzip, br',
        'if-none-match': tag,
      });
      expect(again.status).toBe(304);
      expect(again.headers.etag).toBe(tag);
    }
  });

  it('serves a HEAD with the headers of the GET and no body', async () => {
    const head = await rawHead(`${t.url}/assets/index-AbCd1234.js`, { 'accept-encoding': 'br' });
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
    expect(head.body.length).toBe(0);
  });

  it('does not serve the compressed copies as files of their own', async () => {
    const res = await t.fetch('/assets/index-AbCd1234.js.br');
    expect(res.status).toBe(404);
  });

  it('compresses index.html too (once, at start) and answers 304 for a matching ETag', async () => {
    const gz = await rawGet(`${t.url}/s/abc/info`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toContain('Accept-Encoding');
    expect(gunzipSync(gz.body).toString()).toContain('runtime-config');
    const br = await rawGet(`${t.url}/`, { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(gunzipSync(gz.body).toString());
    const etag = String(gz.headers.etag);
    const again = await t.fetch('/', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it('answers client routes under any path with index.html, also after thousands of them', async () => {
    for (let i = 0; i < 300; i++) {
      const res = await rawGet(`${t.url}/j/${i}`);
      expect(res.status).toBe(200);
    }
    const res = await rawGet(`${t.url}/assets/index-AbCd1234.js`, { 'accept-encoding': 'br' });
    expect(res.headers['content-encoding']).toBe('br');
  });

  it('gives un-hashed files a short cache and 404s unknown files', async () => {
    const robots = await t.fetch('/robots.txt');
    expect(robots.status).toBe(200);
    expect(robots.headers.get('cache-control')).toBe('public, max-age=3600');
    const missing = await t.fetch('/assets/gone-12345678.js');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).not.toContain('text/html');
  });

  it('never serves files outside the web folder', async () => {
    for (const p of [
      '/..%2fpackage.json',
      '/%2e%2e/%2e%2e/package.json',
      '/assets/..%2f..%2fsecret.txt',
    ]) {
      const res = await rawGet(`${t.url}${p}`);
      expect(res.body.toString()).not.toContain('"name"');
      expect(res.status).not.toBe(500);
    }
  });

  it('does not catch /api, /management or the follow path /s/{code}', async () => {
    const api = await t.fetch('/api/does-not-exist');
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toContain('application/problem+json');
    const mgmt = await t.fetch('/management/nothing-here');
    expect(mgmt.status).toBe(404);
    expect(mgmt.headers.get('content-type')).not.toContain('text/html');
    const follow = await t.fetch('/s/zzzzzzz');
    expect(follow.status).toBe(302);
    expect(follow.headers.get('location')).toBe('/s/zzzzzzz/not-found');
    const created = await t.post('/api/code', { url: 'https://example.com/web' });
    const { code } = (await created.json()) as { code: string };
    const ok = await t.fetch(`/s/${code}/`);
    expect(ok.status).toBe(302);
    expect(ok.headers.get('location')).toBe('https://example.com/web');
  });

  it('does not answer non-GET requests with index.html', async () => {
    const res = await t.fetch('/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(404);
  });
});

describe('web client serving (external Unleash, Sentry)', () => {
  const t = useWebApp({
    UNLEASH_URL: 'https://unleash.example.org/api/frontend',
    UNLEASH_CLIENT_KEY: 'default:production.abc',
    SENTRY_DSN_WEB: 'https://key@o1.ingest.sentry.io/2',
    NODE_ENV: 'production',
  });

  it('points the client at the external flag service and the Sentry DSN', async () => {
    const res = await t.fetch('/');
    expect(res.headers.get('content-security-policy')).toContain(
      "connect-src 'self' https://unleash.example.org https://o1.ingest.sentry.io;",
    );
    const rc = island(await res.text());
    expect(rc.flags).toEqual({
      url: 'https://unleash.example.org/api/frontend',
      clientKey: 'default:production.abc',
      refreshSeconds: 60,
      embedded: false,
    });
    expect(rc.sentryDsn).toBe('https://key@o1.ingest.sentry.io/2');
    expect(rc.languageSwitch).toBeNull();
  });
});

describe('index.html in the visitor language (the language switch on by default)', () => {
  const t = useWebApp({});
  const description = (html: string) =>
    /<meta name="description" content="([^"]*)"/.exec(html)?.[1];

  it('an English browser gets English: <html lang>, title and description', async () => {
    const res = await t.fetch('/', { headers: { 'accept-language': 'en-US,en;q=0.9' } });
    expect(res.headers.get('vary')).toContain('Accept-Language');
    const html = await res.text();
    expect(html).toContain('<html lang="en">');
    expect(description(html)).toBe('URL-Shorter: Share your links simply and quickly');
    expect(html).toContain('<title>URL-Shorter: Share your links simply and quickly</title>');
  });

  it('a German browser gets German; other languages get the instance default (de)', async () => {
    for (const header of ['de-DE,de;q=0.9,en;q=0.8', 'fr-FR,fr;q=0.9', undefined]) {
      const res = await t.fetch('/login', {
        headers: header ? { 'accept-language': header } : {},
      });
      const html = await res.text();
      expect(html, header).toContain('<html lang="de">');
      expect(description(html), header).toBe('URL-Shorter: Teile deine Links einfach und schnell');
    }
  });
});

describe('index.html with the language switch off', () => {
  const t = useWebApp({ FLAGS: 'languageSwitch=off' });

  it('is in DEFAULT_LANGUAGE for every browser', async () => {
    const res = await t.fetch('/', { headers: { 'accept-language': 'en-US' } });
    expect(res.headers.get('vary') ?? '').not.toContain('Accept-Language');
    const html = await res.text();
    expect(island(html).languageSwitch).toBe(false);
    expect(html).toContain('<html lang="de">');
  });
});

describe('web client serving (an English instance)', () => {
  const t = useWebApp({ DEFAULT_LANGUAGE: 'en' });

  it('tells the client its default language and says it in <html lang> before any script runs', async () => {
    const html = await (await t.fetch('/')).text();
    expect(island(html).defaultLanguage).toBe('en');
    // The embedded switch (on by default), so the client speaks the visitor's language from the
    // first paint; a French browser gets the instance's English.
    expect(island(html).languageSwitch).toBe(true);
    const fr = await (await t.fetch('/', { headers: { 'accept-language': 'fr' } })).text();
    expect(fr).toContain('<html lang="en">');
    expect(html).toContain('<html lang="en">');
    expect(html).not.toContain('lang="de"');
  });
});

describe('web client serving without a build', () => {
  const t = useTestApp({ WEB_DIR: join(tmpdir(), 'no-such-web-dir-for-tests') });

  it('answers client routes with 404 and keeps the API working', async () => {
    expect((await t.fetch('/')).status).toBe(404);
    expect((await t.fetch('/api/frontend')).status).toBe(200);
  });
});
