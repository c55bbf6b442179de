import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { Haproxy } from '../support/haproxy';

const MAX_TRIES = 5;

/** A GET from a chosen loopback source address (so the proxy sees a distinct client). */
function get(
  url: string,
  localAddress: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { localAddress, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The password lockout behind a real reverse proxy (HAProxy with `option forwardfor`) while the
 * client forges X-Forwarded-For: the lock must follow the address the proxy saw, not the header.
 */
describe.each([
  { setting: '127.0.0.2', note: 'the proxy address as the trusted list' },
  { setting: '1', note: 'one hop' },
  { setting: 'true', note: 'deprecated true = one hop' },
])('TRUST_PROXY=$setting ($note) behind HAProxy', ({ setting }) => {
  let t: TestApp;
  let proxy: Haproxy;
  let front: string;
  const password = 'right-password';

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: setting, PASSWORD_MAX_TRIES: String(MAX_TRIES) });
    const port = Number(new URL(t.url).port);
    // HAProxy reaches the app from 127.0.0.2; clients reach HAProxy from 127.0.0.3 and 127.0.0.4.
    proxy = new Haproxy([{ host: '127.0.0.1', port }], { source: '127.0.0.2' });
    front = await proxy.start();
  });
  afterAll(async () => {
    await proxy?.stop();
    await t?.close();
  });

  async function protectedShort(): Promise<string> {
    const res = await t.post('/api/code', { url: 'https://example.com/locked-target', password });
    expect(res.status).toBe(201);
    return ((await res.json()) as { code: string }).code;
  }

  it('locks the real client after the allowed wrong tries although every try forges a new X-Forwarded-For', async () => {
    const code = await protectedShort();
    const answers: string[] = [];
    for (let i = 0; i < 30; i++) {
      const r = await get(`${front}/s/${code}?password=wrong-${i}`, '127.0.0.3', {
        'X-Forwarded-For': `203.0.113.${i + 1}`,
      });
      expect(r.status).toBe(302);
      answers.push(r.location ?? '');
    }
    const wrong = `/s/${code}/password-required?wrong=true`;
    const locked = `/s/${code}/password-required?locked=true`;
    expect(answers.slice(0, MAX_TRIES - 1)).toEqual(Array(MAX_TRIES - 1).fill(wrong));
    expect(answers.slice(MAX_TRIES)).toEqual(Array(30 - MAX_TRIES).fill(locked));

    // The right password does not reach the target while locked, whatever the header says.
    const right = await get(`${front}/s/${code}?password=${password}`, '127.0.0.3', {
      'X-Forwarded-For': '198.51.100.77',
    });
    expect(right.location).toBe(locked);

    // Another real client behind the same proxy is not affected.
    const other = await get(`${front}/s/${code}?password=${password}`, '127.0.0.4');
    expect(other.location).toBe('https://example.com/locked-target');
  });

  it('the info call (through Express) applies the same lock to the same client', async () => {
    const code = await protectedShort();
    const statuses: number[] = [];
    for (let i = 0; i < MAX_TRIES + 3; i++) {
      const r = await get(
        `${front}/api/code/${code}?redirect=false&password=wrong-${i}`,
        '127.0.0.3',
        { 'X-Forwarded-For': `192.0.2.${i + 1}, 10.0.0.${i + 1}` },
      );
      statuses.push(r.status);
    }
    expect(statuses.slice(0, MAX_TRIES)).toEqual(Array(MAX_TRIES).fill(403));
    expect(statuses.slice(MAX_TRIES)).toEqual(Array(3).fill(429));
    // The follow fast path sees the same client and the same lock.
    const follow = await get(`${front}/s/${code}?password=${password}`, '127.0.0.3', {
      'X-Forwarded-For': '192.0.2.200',
    });
    expect(follow.location).toBe(`/s/${code}/password-required?locked=true`);
  });
});
