import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  DefaultAddressPolicy,
  METADATA_ADDRESS_POLICY,
  type AddressPolicy,
} from '../../src/metadata/address-policy';
import { type TestApp, useTestApp } from '../support/app';
import { htmlPage, serveHtml, useFakeSite } from '../support/fake-site';
import { createShort } from '../support/shorts';

const NULLS = { title: null, description: null, image: null };

type Client = Pick<TestApp, 'fetch' | 'post'>;

async function metadata(
  t: Client,
  code: string,
  query = '',
): Promise<{ status: number; body: unknown; type: string | null }> {
  const res = await t.fetch(`/api/code/${code}/metadata${query}`);
  return { status: res.status, body: await res.json(), type: res.headers.get('content-type') };
}

/** A site on loopback (v4 and v6) that must never be reached: counts connections and requests. */
const useCanary = () =>
  useFakeSite({ '/': serveHtml(htmlPage('<title>canary</title>')) }, { ipv6: true });

describe('GET /api/code/{code}/metadata — SSRF protection (METADATA_ALLOW_LOOPBACK off)', () => {
  const canary = useCanary();
  const t = useTestApp();

  it('answers all-null metadata and never connects for loopback, private and link-local targets', async () => {
    const p = canary.port;
    const targets = [
      `http://127.0.0.1:${p}/`,
      `http://[::1]:${p}/`,
      `http://0:${p}/`,
      `http://2130706433:${p}/`,
      `http://[::ffff:127.0.0.1]:${p}/`,
      `http://localhost:${p}/`,
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data/',
    ];
    for (const target of targets) {
      const { code } = await createShort(t, { url: target });
      const m = await metadata(t, code);
      expect(m.status, target).toBe(200);
      expect(m.body, target).toEqual(NULLS);
    }
    expect(canary.connections).toBe(0);
    expect(canary.requests).toEqual([]);
  });

  it('answers 404 entity_not_exists for an unknown code', async () => {
    const res = await t.fetch('/api/code/doesNotExist1/metadata');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await res.json()).toMatchObject({
      status: 404,
      detail: 'Entity URLShort not exists',
      errorKey: 'entity_not_exists',
    });
  });
});

describe('GET /api/code/{code}/metadata — a public-looking target that redirects to loopback', () => {
  const canary = useCanary();
  const to = (location: string) => (_req: unknown, res: ServerResponse) =>
    void res.writeHead(302, { location }).end();
  const site = useFakeSite(() => ({
    '/public': serveHtml(htmlPage('<meta property="og:title" content="Public page">')),
    '/to-loopback': to(`http://127.0.0.1:${canary.port}/`),
    '/to-localhost': to(`http://localhost:${canary.port}/`),
    '/to-v6': to(`http://[::1]:${canary.port}/`),
    '/to-mapped': to(`http://[::ffff:127.0.0.1]:${canary.port}/`),
    '/to-zero': to(`http://0:${canary.port}/`),
  }));
  // The real AppModule with only the metadata address policy replaced: exactly the site's loopback
  // ip:port counts as "public" (an allowed first hop); every other hop is judged by the real rules.
  const real = new DefaultAddressPolicy([80, 443], false);
  const policy: AddressPolicy = {
    allows: (address, p) => (address === '127.0.0.1' && p === site.port) || real.allows(address, p),
  };
  const t = useTestApp({}, { overrides: [{ provide: METADATA_ADDRESS_POLICY, useValue: policy }] });

  it('reads the allowed first hop (the policy override really is in use)', async () => {
    const { code } = await createShort(t, { url: `${site.url}/public` });
    expect((await metadata(t, code)).body).toEqual({ ...NULLS, title: 'Public page' });
  });

  it('refuses the redirect hop: empty metadata, zero canary hits', async () => {
    for (const path of ['/to-loopback', '/to-localhost', '/to-v6', '/to-mapped', '/to-zero']) {
      const { code } = await createShort(t, { url: `${site.url}${path}` });
      const m = await metadata(t, code);
      expect(m.status, path).toBe(200);
      expect(m.body, path).toEqual(NULLS);
      expect(site.hits(path), path).toBe(1);
    }
    expect(canary.connections).toBe(0);
    expect(canary.requests).toEqual([]);
  });
});

describe('GET /api/code/{code}/metadata — fake target pages (METADATA_ALLOW_LOOPBACK on)', () => {
  const big = (() => {
    const head =
      '<html><head><meta property="og:title" content="Big page"><title>ignored</title></head><body>';
    const filler = '<p>' + 'x'.repeat(1020) + '</p>\n';
    return {
      head,
      filler,
      lateMeta: '<meta property="og:description" content="after the cut-off">',
    };
  })();

  const site = useFakeSite({
    '/og': serveHtml(
      htmlPage(`<title>Plain</title><meta name="description" content="Plain description">
          <meta property="og:title" content="Fake &amp; Friends">
          <meta property="og:description" content="A page for tests">
          <meta property="og:image" content="https://img.example.com/cover.png">`),
    ),
    '/plain': serveHtml(
      htmlPage(
        '<title>Only a title</title><meta name="description" content="Only a description"><meta property="og:image" content="/relative.png">',
      ),
    ),
    '/latin1': serveHtml(
      '<html><head><title>Caf\u00e9</title></head></html>',
      'text/html; charset=iso-8859-1',
    ),
    '/text': serveHtml('<title>not html</title>', 'text/plain'),
    '/image': serveHtml('<title>not html</title>', 'image/png'),
    '/cached': serveHtml(htmlPage('<title>Cached</title>')),
    '/protected': serveHtml(htmlPage('<meta property="og:title" content="Secret page">')),
    '/big': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.write(big.head);
      // 2 MB of body with an og:description at 1 MB; the response is never ended, so only
      // the 512 KiB cut-off (not the end of the page, not the timeout) gives the og:title back.
      const chunk = big.filler.repeat(64);
      for (let written = 0; written < 2 * 1024 * 1024; written += Buffer.byteLength(chunk)) {
        if (written >= 1024 * 1024 && written < 1024 * 1024 + Buffer.byteLength(chunk))
          res.write(big.lateMeta);
        res.write(chunk);
      }
    },
    '/never-ends': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html><head><meta property="og:title" content="Never finished">');
    },
  });
  const t = useTestApp({ METADATA_ALLOW_LOOPBACK: 'true' });

  it('returns og:title, og:description and og:image, entities decoded', async () => {
    const { code } = await createShort(t, { url: `${site.url}/og` });
    const m = await metadata(t, code);
    expect(m.status).toBe(200);
    expect(m.type).toMatch(/^application\/json/);
    expect(m.body).toEqual({
      title: 'Fake & Friends',
      description: 'A page for tests',
      image: 'https://img.example.com/cover.png',
    });
  });

  it('falls back to <title> and meta description; a relative og:image is null', async () => {
    const { code } = await createShort(t, { url: `${site.url}/plain` });
    expect((await metadata(t, code)).body).toEqual({
      title: 'Only a title',
      description: 'Only a description',
      image: null,
    });
  });

  it('decodes the charset the server names', async () => {
    const { code } = await createShort(t, { url: `${site.url}/latin1` });
    // serveHtml writes UTF-8 bytes; named iso-8859-1 they read as the two latin-1 characters.
    expect((await metadata(t, code)).body).toEqual({ ...NULLS, title: 'CafÃ©' });
  });

  it('answers nulls for content that is not text/html', async () => {
    for (const path of ['/text', '/image']) {
      const { code } = await createShort(t, { url: `${site.url}${path}` });
      expect((await metadata(t, code)).body, path).toEqual(NULLS);
      expect(site.hits(path), path).toBe(1);
    }
  });

  it('cuts a 2 MB page off at 512 KiB and destroys the socket', async () => {
    const { code } = await createShort(t, { url: `${site.url}/big` });
    const m = await metadata(t, code);
    expect(m.status).toBe(200);
    expect(m.body).toEqual({ title: 'Big page', description: null, image: null });
    const closed = await site.closed('/big');
    expect(closed.ended).toBe(false);
    expect(closed.bytesWritten).toBeGreaterThan(2 * 1024 * 1024);
  });

  it('gives up on a page that never finishes (5 s deadline): nulls, socket closed', async () => {
    const { code } = await createShort(t, { url: `${site.url}/never-ends` });
    const m = await metadata(t, code);
    expect(m.status).toBe(200);
    expect(m.body).toEqual(NULLS);
    expect((await site.closed('/never-ends')).ended).toBe(false);
  });

  it('serves the second call from the cache', async () => {
    const { code } = await createShort(t, { url: `${site.url}/cached` });
    expect((await metadata(t, code)).body).toEqual({ ...NULLS, title: 'Cached' });
    const { code: again } = await createShort(t, { url: `${site.url}/cached` });
    expect((await metadata(t, code)).body).toEqual({ ...NULLS, title: 'Cached' });
    expect((await metadata(t, again)).body).toEqual({ ...NULLS, title: 'Cached' });
    expect(site.hits('/cached')).toBe(1);
  });

  it('reveals metadata of a protected short only with the right password', async () => {
    const { code } = await createShort(t, {
      url: `${site.url}/protected`,
      password: 'correct horse',
    });
    const none = await metadata(t, code);
    expect(none.status).toBe(403);
    expect(none.type).toMatch(/^application\/problem\+json/);
    expect(none.body).toMatchObject({ status: 403, detail: 'Password required' });
    const wrong = await metadata(t, code, '?password=wrong');
    expect(wrong.status).toBe(403);
    expect(wrong.type).toMatch(/^application\/problem\+json/);
    expect(site.hits('/protected')).toBe(0);
    const right = await metadata(t, code, `?password=${encodeURIComponent('correct horse')}`);
    expect(right.status).toBe(200);
    expect(right.body).toEqual({ ...NULLS, title: 'Secret page' });
  });
});
