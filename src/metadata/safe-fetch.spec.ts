import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSite, htmlPage, serveHtml, type FakeSite } from '../../test/support/fake-site';
import { DefaultAddressPolicy, type AddressPolicy } from './address-policy';
import {
  decodeBody,
  safeFetchHtml,
  safeProbeStatus,
  SafeFetchError,
  type FetchLimits,
  type Resolver,
} from './safe-fetch';

/**
 * The real rules (switch off), except that exactly one loopback ip:port — the fake
 * "public" site — counts as public. Every other hop is judged by the real policy.
 */
class OnePublicLoopbackPolicy implements AddressPolicy {
  readonly asked: string[] = [];
  private readonly real = new DefaultAddressPolicy([80, 443], false);
  constructor(private readonly port: number) {}
  allows(address: string, port: number): boolean {
    this.asked.push(`${address}:${port}`);
    if (address === '127.0.0.1' && port === this.port) return true;
    return this.real.allows(address, port);
  }
}

const LIMITS: FetchLimits = {
  timeoutMs: 5_000,
  maxBytes: 512 * 1024,
  maxRedirects: 3,
  userAgent: 'URL-Shorter/test (metadata)',
};

async function reason(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (err) {
    return err instanceof SafeFetchError ? err.reason : `other: ${String(err)}`;
  }
}

describe('safeFetchHtml', () => {
  let canary: FakeSite;
  let site: FakeSite;
  let policy: OnePublicLoopbackPolicy;
  const seenHeaders: Record<string, string | undefined>[] = [];
  const hosts: Record<string, { address: string; family: number }[]> = {};
  const resolver: Resolver = async (name) => {
    const r = hosts[name];
    if (!r) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    return r;
  };

  beforeAll(async () => {
    canary = await startFakeSite(
      { '/': serveHtml(htmlPage('<title>canary</title>')) },
      { ipv6: true },
    );
    const redirect = (to: string) => (_req: unknown, res: import('node:http').ServerResponse) => {
      res.writeHead(302, { location: to }).end();
    };
    site = await startFakeSite({
      '/page': (req, res) => {
        seenHeaders.push({
          host: req.headers.host,
          ua: req.headers['user-agent'],
          cookie: req.headers.cookie,
        });
        serveHtml(htmlPage('<title>ok</title>'))(req, res);
      },
      '/to-canary': redirect(`${canary.url}/`),
      '/to-canary-localhost': redirect(`http://localhost:${canary.port}/`),
      '/to-canary-v6': redirect(`http://[::1]:${canary.port}/`),
      '/to-canary-mapped': redirect(`http://[::ffff:127.0.0.1]:${canary.port}/`),
      '/to-canary-decimal': redirect(`http://2130706433:${canary.port}/`),
      '/to-canary-zero': redirect(`http://0:${canary.port}/`),
      '/to-metadata-ip': redirect('http://169.254.169.254/latest/meta-data/'),
      '/to-file': redirect('file:///etc/passwd'),
      '/r1': redirect('/r2'),
      '/r2': redirect('/r3'),
      '/r3': redirect('/page'),
      '/r0': redirect('/r1'),
      '/plain': (_req, res) =>
        res.writeHead(200, { 'content-type': 'text/plain' }).end('<title>x</title>'),
      '/json': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
      '/gzip': (_req, res) =>
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end('xx'),
      '/error': (_req, res) =>
        res.writeHead(500, { 'content-type': 'text/html' }).end('<title>x</title>'),
      '/big': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<html><head><title>big</title></head><body>');
        res.write('a'.repeat(2 * 1024 * 1024));
        // Never ended: only the byte limit can finish this fetch before the deadline.
      },
      '/stall': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<html><head><title>stall</title>');
      },
    });
    policy = new OnePublicLoopbackPolicy(site.port);
    hosts['good.test'] = [{ address: '127.0.0.1', family: 4 }];
    hosts['mixed.test'] = [
      { address: '127.0.0.1', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    hosts['private.test'] = [{ address: '192.168.1.10', family: 4 }];
    hosts['mapped.test'] = [{ address: '::ffff:169.254.169.254', family: 6 }];
    hosts['empty.test'] = [];
  });

  afterAll(async () => {
    await canary?.close();
    await site?.close();
  });

  it('fetches an allowed page, sending the name as Host, a plain User-Agent and no cookies', async () => {
    const page = await safeFetchHtml(`${site.url}/page`, policy, resolver, LIMITS);
    expect(page.body.toString()).toContain('<title>ok</title>');
    expect(page.truncated).toBe(false);
    const viaName = await safeFetchHtml(
      `http://good.test:${site.port}/page`,
      policy,
      resolver,
      LIMITS,
    );
    expect(viaName.url).toBe(`http://good.test:${site.port}/page`);
    expect(seenHeaders.at(-1)).toEqual({
      host: `good.test:${site.port}`,
      ua: 'URL-Shorter/test (metadata)',
      cookie: undefined,
    });
  });

  it('refuses a public-looking first hop that redirects to loopback, in every spelling, without touching the canary', async () => {
    for (const path of [
      '/to-canary',
      '/to-canary-localhost',
      '/to-canary-v6',
      '/to-canary-mapped',
      '/to-canary-decimal',
      '/to-canary-zero',
    ]) {
      hosts.localhost = [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ];
      const before = site.hits(path);
      expect(
        await reason(safeFetchHtml(`${site.url}${path}`, policy, resolver, LIMITS)),
        path,
      ).toBe('address_refused');
      expect(site.hits(path), path).toBe(before + 1); // the first hop really happened
    }
    expect(
      await reason(safeFetchHtml(`${site.url}/to-metadata-ip`, policy, resolver, LIMITS)),
    ).toBe('address_refused');
    expect(policy.asked).toContain(`127.0.0.1:${canary.port}`);
    expect(canary.connections).toBe(0);
    expect(canary.requests).toEqual([]);
  });

  it('refuses a host name when ANY of its records is internal, before connecting', async () => {
    const connections = site.connections;
    expect(
      await reason(safeFetchHtml(`http://mixed.test:${site.port}/page`, policy, resolver, LIMITS)),
    ).toBe('address_refused');
    expect(await reason(safeFetchHtml('http://private.test/page', policy, resolver, LIMITS))).toBe(
      'address_refused',
    );
    expect(await reason(safeFetchHtml('https://mapped.test/page', policy, resolver, LIMITS))).toBe(
      'address_refused',
    );
    expect(site.connections).toBe(connections);
  });

  it('refuses literal internal addresses without a lookup', async () => {
    const real = new DefaultAddressPolicy([80, 443]);
    for (const u of [
      'http://10.0.0.1/',
      'http://169.254.169.254/',
      'http://[fd00::1]/',
      'http://[::ffff:a9fe:a9fe]/',
      `${canary.url}/`,
      `http://[::1]:${canary.port}/`,
    ]) {
      expect(await reason(safeFetchHtml(u, real, resolver, LIMITS)), u).toBe('address_refused');
    }
    expect(canary.connections).toBe(0);
  });

  it('fails on unknown hosts and hosts without records', async () => {
    expect(await reason(safeFetchHtml('http://nowhere.test/', policy, resolver, LIMITS))).toBe(
      'dns_failed',
    );
    expect(await reason(safeFetchHtml('http://empty.test/', policy, resolver, LIMITS))).toBe(
      'dns_failed',
    );
  });

  it('follows at most 3 redirects', async () => {
    const three = await safeFetchHtml(`${site.url}/r1`, policy, resolver, LIMITS);
    expect(three.url).toBe(`${site.url}/page`);
    expect(await reason(safeFetchHtml(`${site.url}/r0`, policy, resolver, LIMITS))).toBe(
      'too_many_redirects',
    );
  });

  it('refuses redirects to other schemes', async () => {
    expect(await reason(safeFetchHtml(`${site.url}/to-file`, policy, resolver, LIMITS))).toBe(
      'bad_url',
    );
    expect(await reason(safeFetchHtml('ftp://example.com/', policy, resolver, LIMITS))).toBe(
      'bad_url',
    );
  });

  it('only accepts 2xx text/html without content coding', async () => {
    expect(await reason(safeFetchHtml(`${site.url}/plain`, policy, resolver, LIMITS))).toBe(
      'not_html',
    );
    expect(await reason(safeFetchHtml(`${site.url}/json`, policy, resolver, LIMITS))).toBe(
      'not_html',
    );
    expect(await reason(safeFetchHtml(`${site.url}/gzip`, policy, resolver, LIMITS))).toBe(
      'unsupported_encoding',
    );
    expect(await reason(safeFetchHtml(`${site.url}/error`, policy, resolver, LIMITS))).toBe(
      'bad_status',
    );
  });

  it('stops reading at maxBytes and destroys the socket', async () => {
    const page = await safeFetchHtml(`${site.url}/big`, policy, resolver, LIMITS);
    expect(page.truncated).toBe(true);
    expect(page.body.length).toBe(512 * 1024);
    expect(page.body.toString()).toContain('<title>big</title>');
    const closed = await site.closed('/big');
    expect(closed.ended).toBe(false);
  });

  it('gives up at the deadline, covering a body that never finishes and a lookup that never answers', async () => {
    const short = { ...LIMITS, timeoutMs: 300 };
    expect(await reason(safeFetchHtml(`${site.url}/stall`, policy, resolver, short))).toBe(
      'timeout',
    );
    expect((await site.closed('/stall')).ended).toBe(false);
    const hanging: Resolver = () => new Promise(() => undefined);
    expect(await reason(safeFetchHtml('http://slow.test/', policy, hanging, short))).toBe(
      'timeout',
    );
  });
});

describe('decodeBody', () => {
  it('uses the header charset, then a meta charset, then UTF-8', () => {
    expect(decodeBody(Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'iso-8859-1')).toBe('café');
    const meta = Buffer.concat([
      Buffer.from('<meta charset="windows-1252"><title>'),
      Buffer.from([0xe9]),
      Buffer.from('</title>'),
    ]);
    expect(decodeBody(meta, null)).toContain('<title>é</title>');
    expect(decodeBody(Buffer.from('café'), null)).toBe('café');
    expect(decodeBody(Buffer.from('café'), 'no-such-charset')).toBe('café');
  });
});

describe('safeProbeStatus (link health)', () => {
  let canary: FakeSite;
  let site: FakeSite;
  let policy: OnePublicLoopbackPolicy;
  const methods: string[] = [];
  const resolver: Resolver = async (name) => {
    if (name === 'public.test') return [{ address: '127.0.0.1', family: 4 }];
    throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
  };
  const probe = (path: string, url = `http://public.test:${site.port}${path}`) =>
    safeProbeStatus(url, policy, resolver, { ...LIMITS, timeoutMs: 1_000, maxRedirects: 2 });

  beforeAll(async () => {
    canary = await startFakeSite({ '/': serveHtml(htmlPage('<title>canary</title>')) });
    const redirect = (to: string) => (_req: unknown, res: import('node:http').ServerResponse) =>
      void res.writeHead(302, { location: to }).end();
    site = await startFakeSite({
      '/ok': (req, res) => {
        methods.push(req.method ?? '');
        res.writeHead(200, { 'content-type': 'application/pdf' }).end();
      },
      '/no-head': (req, res) => {
        methods.push(req.method ?? '');
        if (req.method === 'HEAD') return void res.writeHead(405).end();
        // A body that never ends: the probe must not wait for it.
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('x'.repeat(64 * 1024));
      },
      '/gone': (_req, res) => void res.writeHead(410).end(),
      '/loop': redirect('/loop'),
      '/hop': redirect('/ok'),
      '/to-canary': redirect(`${canary.url}/`),
      '/silent': () => undefined,
    });
    policy = new OnePublicLoopbackPolicy(site.port);
  });

  afterAll(async () => {
    await site.close();
    await canary.close();
  });

  it('asks with HEAD and answers the status, whatever the content type', async () => {
    methods.length = 0;
    expect(await probe('/ok')).toEqual({ status: 200, url: `http://public.test:${site.port}/ok` });
    expect(methods).toEqual(['HEAD']);
    expect((await probe('/gone')).status).toBe(410);
  });

  it('asks again with GET where HEAD is answered 405, without reading the body', async () => {
    methods.length = 0;
    const started = Date.now();
    expect((await probe('/no-head')).status).toBe(200);
    expect(methods).toEqual(['HEAD', 'GET']);
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('follows redirects; a loop is too_many_redirects', async () => {
    expect(await probe('/hop')).toEqual({ status: 200, url: `http://public.test:${site.port}/ok` });
    expect(await reason(probe('/loop'))).toBe('too_many_redirects');
  });

  it('keeps the address policy on every hop, and the deadline', async () => {
    expect(await reason(probe('/to-canary'))).toBe('address_refused');
    expect(canary.requests).toEqual([]);
    expect(await reason(probe('/', 'http://10.0.0.1/'))).toBe('address_refused');
    expect(await reason(probe('/', 'http://nowhere.test/'))).toBe('dns_failed');
    expect(await reason(probe('/', 'ftp://public.test/'))).toBe('bad_url');
    expect(await reason(probe('/silent'))).toBe('timeout');
  });
});
