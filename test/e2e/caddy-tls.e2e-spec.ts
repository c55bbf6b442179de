import { request as httpsRequest } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app';
import { Caddy } from '../support/caddy';
import { useLogin } from '../support/login';
import { BROWSER_UA } from '../support/user-agent';

interface TlsAnswer {
  status: number;
  location: string | undefined;
  names: string;
}

/**
 * Own domains behind Caddy's on-demand TLS (docker/Caddyfile; CONTRACT "Own domains"): Caddy
 * issues a certificate only for a host that GET /api/domains/allowed permits, so a host that merely
 * points at the server gets no certificate, and a verified domain's links work over HTTPS at once.
 */
describe('on-demand TLS in front of the app (Caddy)', () => {
  const t = useTestApp({
    AUTH_DEV_LOGIN: 'true',
    ADMIN_USERS: 'dev:admin',
    BASE_URL: 'http://short.example',
  });
  const admin = useLogin(t, 'admin');
  const alice = useLogin(t, 'alice');
  const caddy = new Caddy();

  beforeAll(async () => {
    expect(
      (await admin.post('/api/domains', { host: 'team.example.org', shared: true })).status,
    ).toBe(201);
    expect((await alice.post('/api/domains', { host: 'pending.example.org' })).status).toBe(201);
    expect(
      (
        await alice.post('/api/code', {
          url: 'https://example.com/over-tls',
          code: 'tls',
          domain: 'team.example.org',
        })
      ).status,
    ).toBe(201);
    const u = new URL(t.url);
    await caddy.start({ host: u.hostname, port: Number(u.port) });
  }, 30_000);
  afterAll(() => caddy.stop());

  /** GET https://{host}{path} through Caddy (SNI and Host = host); the certificate's names. */
  const getOverTls = (host: string, path: string) =>
    new Promise<TlsAnswer>((resolve, reject) => {
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port: caddy.httpsPort,
          servername: host,
          path,
          headers: { host, 'user-agent': BROWSER_UA },
          // Caddy's local CA is not trusted here; the names are checked below.
          rejectUnauthorized: false,
          timeout: 10_000,
        },
        (res) => {
          const cert = (res.socket as TLSSocket).getPeerCertificate();
          res.resume();
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              location: res.headers.location,
              names: cert.subjectaltname ?? '',
            }),
          );
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      req.end();
    });

  it('a verified domain gets a certificate on its first visit and its links follow over HTTPS', async () => {
    const res = await getOverTls('team.example.org', '/tls');
    expect(res.names).toContain('DNS:team.example.org');
    expect(res.status).toBe(302);
    expect(res.location).toBe('https://example.com/over-tls');
  }, 20_000);

  it('an unverified domain and a foreign host get no certificate; once allowed, the same host gets one', async () => {
    for (const host of ['pending.example.org', 'later.example.net']) {
      await expect(getOverTls(host, '/tls')).rejects.toThrow();
    }
    expect(caddy.log).not.toMatch(/certificate obtained successfully.*(pending|later)/);
    // The refusal was the app's answer: when an admin adds the host, Caddy issues at once.
    expect(
      (await admin.post('/api/domains', { host: 'later.example.net', shared: true })).status,
    ).toBe(201);
    const res = await getOverTls('later.example.net', '/');
    expect(res.names).toContain('DNS:later.example.net');
    expect(res.status).toBe(302);
  }, 30_000);
});
