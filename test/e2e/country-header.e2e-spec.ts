import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { StatisticsRecorder } from '../../src/statistics/recorder';
import { useTestApp } from '../support/app';
import { useLogin } from '../support/login';
import { createShort } from '../support/shorts';
import { BROWSER_UA } from '../support/user-agent';

/** A GET from a chosen loopback source address (so the app sees a chosen socket peer). */
function get(url: string, localAddress: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
    const req = request(
      url,
      { localAddress, headers: { 'user-agent': BROWSER_UA, ...headers }, agent: false },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, location: res.headers.location }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const TRUSTED = '127.0.0.2';
const STRANGER = '127.0.0.1';

/**
 * GEO_COUNTRY_HEADER is believed only from a trusted proxy (CONTRACT "Hardening"), as
 * X-Forwarded-For: a client that connects directly cannot choose its country rule or the
 * statistics' country by sending the header itself.
 */
describe('the country header comes only from a trusted proxy', () => {
  const t = useTestApp({
    AUTH_DEV_LOGIN: 'true',
    TRUST_PROXY: `10.0.0.0/8,${TRUSTED}`,
    GEO_COUNTRY_HEADER: 'CF-IPCountry',
  });
  const alice = useLogin(t, 'alice');
  const rules = [{ url: 'https://example.com/de', conditions: [{ type: 'country', value: 'DE' }] }];

  it('a country rule: ignored from an untrusted peer, used from a trusted one (both follow routes)', async () => {
    const s = await createShort(alice, { url: 'https://example.com/default', rules });
    for (const path of [`/s/${s.code}`, `/api/code/${s.code}`]) {
      const stranger = await get(t.url + path, STRANGER, { 'CF-IPCountry': 'DE' });
      expect(stranger.status, path).toBe(302);
      expect(stranger.location, path).toBe('https://example.com/default');
      const proxied = await get(t.url + path, TRUSTED, { 'CF-IPCountry': 'DE' });
      expect(proxied.location, path).toBe('https://example.com/de');
    }
  });

  it("the statistics' country: ignored from an untrusted peer, used from a trusted one", async () => {
    const s = await createShort(alice, { url: 'https://example.com/default' });
    for (let i = 0; i < 3; i++) {
      expect((await get(`${t.url}/s/${s.code}`, STRANGER, { 'CF-IPCountry': 'DE' })).status).toBe(
        302,
      );
    }
    expect((await get(`${t.url}/s/${s.code}`, TRUSTED, { 'CF-IPCountry': 'FR' })).status).toBe(302);
    await t.app.get(StatisticsRecorder).flush();
    const res = await alice.fetch(`/api/code/${s.id}/statistics`);
    expect(res.status).toBe(200);
    const stats = (await res.json()) as {
      total: { visits: number };
      countries: Array<{ name: string; count: number }>;
    };
    expect(stats.total.visits).toBe(4);
    const countries = Object.fromEntries(stats.countries.map((c) => [c.name, c.count]));
    expect(countries.DE).toBeUndefined();
    expect(countries.FR).toBe(1);
  });
});
