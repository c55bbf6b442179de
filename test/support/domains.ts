import { afterAll, beforeAll, expect } from 'vitest';
import { type TestApp, useTestApp } from './app';
import { FakeDns } from './fake-dns';
import type { LoggedIn } from './login';

/**
 * An app whose own domains are verified against a loopback DNS server (FakeDns): dev logins (the
 * user `admin` is an admin), BASE_URL http://short.example. `env` adds to or overrides that.
 */
export function useDomainsApp(env: Record<string, string> = {}): { dns: FakeDns; t: TestApp } {
  const dns = new FakeDns();
  beforeAll(() => dns.start());
  afterAll(() => dns.stop());
  const t = useTestApp(() => ({
    AUTH_DEV_LOGIN: 'true',
    ADMIN_USERS: 'dev:admin',
    BASE_URL: 'http://short.example',
    DNS_SERVERS: dns.server,
    DNS_TIMEOUT_MS: '500',
    ...env,
  }));
  return { dns, t };
}

/** What the tests read of a domain. */
export interface DomainAnswer {
  id: string;
  host: string;
  verified: boolean;
  verification: { value: string };
}

/**
 * A user's domain, added and verified through the fake DNS (its TXT record answered first); the
 * verification must pass.
 */
export async function addVerifiedDomain<D extends DomainAnswer = DomainAnswer>(
  dns: FakeDns,
  u: LoggedIn,
  host: string,
): Promise<D> {
  const added = await u.post('/api/domains', { host });
  expect(added.status, await added.clone().text()).toBe(201);
  const d = (await added.json()) as D;
  dns.answers.set(`_url-shorter.${host}`, { txt: [[d.verification.value]] });
  const res = await u.post(`/api/domains/${d.id}/verify`, {});
  expect(res.status).toBe(200);
  const body = (await res.json()) as D;
  expect(body.verified).toBe(true);
  return body;
}
