import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { DomainRegistry } from '../../src/domains/domain-registry';
import { createTestApp, type TestApp } from '../support/app';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { getOnHost } from '../support/on-host';
import { oldSchema } from '../support/old-schema';

/**
 * A database whose hosts were unique across the instance is upgraded (CONTRACT "Hardening"): a
 * verified domain keeps its host (verified_host is filled in), a pending one stays a claim that
 * others may now share; the unique index on host is gone.
 */
describe('upgrading domains to claims', () => {
  let db: TestDatabase;
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it('verified domains keep their hosts and keep being served; pending ones become claims', async () => {
    db = await createTestDatabase();
    // Before claims could share a host.
    const { old, sql, at, addUser } = await oldSchema(db, 'DomainClaims');
    const now = at(new Date());
    const user = await addUser('alice');
    const verified = randomUUID();
    const pending = randomUUID();
    for (const [id, host, v] of [
      [verified, 'old.example.com', 1],
      [pending, 'pending.example.com', 0],
    ] as const) {
      await sql(
        'INSERT INTO domains (id, host, owner_id, verified, enabled, home_redirect, token, created_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?)',
        [id, host, user, v, 'https://brand.example/', 'tok', now],
      );
    }
    await old.destroy();

    t = await createTestApp({ ...db.env, AUTH_DEV_LOGIN: 'true' });
    const rows = await t.query<Array<{ id: string; verified_host: string | null }>>(
      'SELECT id, verified_host FROM domains ORDER BY host',
    );
    expect(rows).toEqual([
      { id: verified, verified_host: 'old.example.com' },
      { id: pending, verified_host: null },
    ]);
    expect(t.app.get(DomainRegistry).get('old.example.com')?.id).toBe(verified);
    expect((await getOnHost(t.url, 'old.example.com', '/')).location).toBe(
      'https://brand.example/',
    );
    // The pending host may now be claimed by another user; the verified one is taken.
    const bob = (await t.fetch('/api/auth/dev?username=bob')).headers.get('set-cookie') ?? '';
    const headers = {
      cookie: bob.split(';')[0],
      origin: t.url,
      'content-type': 'application/json',
    };
    const claim = (host: string) =>
      t!.fetch('/api/domains', { method: 'POST', headers, body: JSON.stringify({ host }) });
    expect((await claim('pending.example.com')).status).toBe(201);
    expect((await claim('old.example.com')).status).toBe(409);
  });
});
