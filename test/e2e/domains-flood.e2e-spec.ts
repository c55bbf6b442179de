import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainRegistry } from '../../src/domains/domain-registry';
import { useTestApp } from '../support/app';
import { TEST_DB_KIND } from '../support/database';
import { FakeDns } from '../support/fake-dns';
import { type LoggedIn, useLogin } from '../support/login';
import { insertShort } from '../support/shorts';
import { pause } from '../support/wait';

/** The longest a follow may wait while domains change (CONTRACT "Hardening", "Limits"). */
const MAX_WAIT_MS = 250;
const FOLLOW_EVERY_MS = 50;
const DOMAINS = 10_000;
const ROWS_PER_INSERT = 500;

interface Domain {
  id: string;
  verification: { value: string };
}

/**
 * Issue 37, item 2: with 10,000 domains in the table, every change to a domain reloaded all of
 * them on every instance (and the reloads queued back to back): ten creates in flight held a follow
 * for half a second with 1,500 domains. Now a change is one row read again, and the periodic full
 * resync reads in pages that yield to the event loop. While users add, verify, edit and delete
 * domains (and a full resync runs), a short is followed every 50 ms; no follow may wait more than
 * 250 ms from when it was due (the app runs in this process: a blocked loop delays both).
 */
describe('domain changes with 10,000 domains in the table', () => {
  const dns = new FakeDns();
  beforeAll(() => dns.start());
  afterAll(() => dns.stop());
  const t = useTestApp(() => ({
    AUTH_DEV_LOGIN: 'true',
    ADMIN_USERS: 'dev:admin',
    BASE_URL: 'http://short.example',
    DNS_SERVERS: dns.server,
    DNS_TIMEOUT_MS: '1000',
  }));
  const users: LoggedIn[] = ['u1', 'u2', 'u3', 'u4', 'u5'].map((name) => useLogin(t, name));
  const admin = useLogin(t, 'admin');
  let code: string;

  beforeAll(async () => {
    // Straight into the table, 500 rows per INSERT: shared, verified domains (all in the registry).
    const created = TEST_DB_KIND === 'sqlite' ? '2026-01-01 00:00:00.000' : new Date('2026-01-01');
    for (let start = 0; start < DOMAINS; start += ROWS_PER_INSERT) {
      const params: unknown[] = [];
      const rows: string[] = [];
      for (let i = start; i < Math.min(start + ROWS_PER_INSERT, DOMAINS); i++) {
        const host = `bulk${i}.flood.example`;
        rows.push('(?, ?, ?, NULL, 1, 1, ?, ?)');
        params.push(randomUUID(), host, host, `token${i}`, created);
      }
      await t.query(
        `INSERT INTO domains (id, host, verified_host, owner_id, verified, enabled, token, created_at) VALUES ${rows.join(', ')}`,
        params,
      );
    }
    await t.app.get(DomainRegistry).reload();
    expect(t.app.get(DomainRegistry).size).toBeGreaterThanOrEqual(DOMAINS);
    code = (await insertShort(t, { url: 'https://example.com/probe' })).code;
  }, 120_000);

  it('adding, verifying, editing and deleting domains (and a full resync) hold no follow longer than 250 ms', async () => {
    const waits: number[] = [];
    let running = true;
    const started = Date.now();
    const follower = (async () => {
      for (let i = 0; running || i < 3; i++) {
        const due = started + i * FOLLOW_EVERY_MS;
        const delay = due - Date.now();
        if (delay > 0) await pause(delay); // follows on a fixed schedule, on purpose
        const res = await t.fetch(`/s/${code}`);
        expect(res.status).toBe(302);
        waits.push(Date.now() - due);
      }
    })();
    let changes = 0;
    /** One user's cycles: add a domain, verify it, change its redirect, delete it. */
    const cycles = async (u: LoggedIn, n: number) => {
      for (let i = 0; i < n; i++) {
        const host = `${u.userId.slice(0, 8)}-${i}.change.example`;
        const added = await u.post('/api/domains', { host });
        expect(added.status).toBe(201);
        const d = (await added.json()) as Domain;
        dns.answers.set(`_url-shorter.${host}`, { txt: [[d.verification.value]] });
        const verified = await u.post(`/api/domains/${d.id}/verify`, {});
        expect(((await verified.json()) as { verified: boolean }).verified).toBe(true);
        const patched = await u.patch(`/api/domains/${d.id}`, {
          homeRedirect: 'https://brand.example/',
        });
        expect(patched.status).toBe(200);
        expect((await u.delete(`/api/domains/${d.id}`)).status).toBe(204);
        changes += 4;
      }
    };
    try {
      await Promise.all([
        ...users.map((u) => cycles(u, 4)),
        (async () => {
          for (let i = 0; i < 5; i++) {
            const res = await admin.post('/api/domains', {
              host: `shared${i}.change.example`,
              shared: true,
            });
            expect(res.status).toBe(201);
            changes++;
          }
        })(),
        (async () => {
          await pause(300);
          await t.app.get(DomainRegistry).reload(); // the periodic full resync
        })(),
      ]);
    } finally {
      running = false;
      await follower;
    }
    waits.sort((a, b) => a - b);
    const max = waits[waits.length - 1];
    console.log(
      `[domains-flood] ${DOMAINS} domains, ${changes} changes: ${waits.length} follows, wait p50 ${waits[Math.floor(waits.length / 2)]} ms, max ${max} ms, work ${Date.now() - started} ms`,
    );
    expect(changes).toBe(5 * 4 * 4 + 5);
    expect(max, 'the longest wait of a follow').toBeLessThanOrEqual(MAX_WAIT_MS);
    // The registry holds every domain: the bulk ones, the shared ones added; none deleted stays.
    const registry = t.app.get(DomainRegistry);
    expect(registry.size).toBe(DOMAINS + 5);
    expect(registry.get('shared4.change.example')?.verified).toBe(true);
  });
});
