import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { DomainCheckJob } from '../../src/domains/domain-check.job';
import { DomainRegistry } from '../../src/domains/domain-registry';
import { CLAIM_TTL_MS } from '../../src/domains/domain.service';
import type { TestApp } from '../support/app';
import { TEST_DB_KIND } from '../support/database';
import { addVerifiedDomain, useDomainsApp } from '../support/domains';
import { type LoggedIn, useLogin } from '../support/login';
import { expectProblem } from '../support/problem';
import { pause } from '../support/wait';
import { countOf, expectCapHoldsUnderRace } from '../support/caps';

interface Domain {
  id: string;
  host: string;
  verified: boolean;
  verification: { value: string };
}

type Keys = { fieldErrorKeys?: Record<string, string> };

/** CONTRACT "Hardening" (issue 37, items 1–3, 5, 6): own domains as a hostile user tries them. */
function useApp(env: Record<string, string> = {}) {
  const { dns, t } = useDomainsApp(env);
  const add = async (u: LoggedIn, body: Record<string, unknown>) => {
    const res = await u.post('/api/domains', body);
    return { res, body: res.status === 201 ? ((await res.json()) as Domain) : null };
  };
  /** A user's domain, verified through the fake DNS. */
  const verified = (u: LoggedIn, host: string) => addVerifiedDomain<Domain>(dns, u, host);
  return {
    dns,
    t,
    add,
    verified,
    alice: useLogin(t, 'alice'),
    bob: useLogin(t, 'bob'),
    carol: useLogin(t, 'carol'),
    admin: useLogin(t, 'admin'),
  };
}

const listOf = async (u: LoggedIn) =>
  (await (await u.fetch('/api/domains')).json()) as Array<Domain & { owner: unknown }>;

describe('limits on domains', () => {
  const { dns, t, add, alice, bob, carol, admin } = useApp({
    LIMIT_DOMAIN_VERIFY: '3/min',
    LIMIT_DOMAINS: '3',
  });

  it('verification is limited per user (LIMIT_DOMAIN_VERIFY): 429 with Retry-After, no DNS query', async () => {
    const d = (await add(alice, { host: 'limited.example.com' })).body as Domain;
    for (let i = 0; i < 3; i++) {
      expect((await alice.post(`/api/domains/${d.id}/verify`, {})).status).toBe(200);
    }
    const asked = dns.asked.length;
    const res = await alice.post(`/api/domains/${d.id}/verify`, {});
    const problem = await expectProblem(res, 429);
    expect(problem.errorKey).toBe('rate_limited');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(dns.asked.length).toBe(asked);
    // Per user: bob's allowance is his own.
    const b = (await add(bob, { host: 'bobs-limited.example.com' })).body as Domain;
    expect((await bob.post(`/api/domains/${b.id}/verify`, {})).status).toBe(200);
    expect((await alice.delete(`/api/domains/${d.id}`)).status).toBe(204);
    expect((await bob.delete(`/api/domains/${b.id}`)).status).toBe(204);
  });

  it('a user holds at most LIMIT_DOMAINS domains, pending included: 409 quota_exceeded with the cap, nothing written', async () => {
    for (const host of ['one.example.com', 'two.example.com', 'three.example.com']) {
      expect((await add(alice, { host })).res.status).toBe(201);
    }
    const problem = await expectProblem((await add(alice, { host: 'four.example.com' })).res, 409);
    expect(problem.errorKey).toBe('quota_exceeded');
    expect(problem.detail).toContain('3');
    const mine = (await listOf(alice)).filter((d) => d.owner !== null);
    expect(mine.map((d) => d.host).sort()).toEqual([
      'one.example.com',
      'three.example.com',
      'two.example.com',
    ]);
    // Deleting one frees a place.
    expect((await alice.delete(`/api/domains/${mine[0].id}`)).status).toBe(204);
    expect((await add(alice, { host: 'four.example.com' })).res.status).toBe(201);
  });

  it('shared domains added by an admin count for nobody', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await add(admin, { host: `shared${i}.example.com`, shared: true })).res.status).toBe(
        201,
      );
    }
    expect((await add(bob, { host: 'bob1.example.com' })).res.status).toBe(201);
  });

  it('twenty creates of one user at once: exactly the cap is written', async () => {
    await expectCapHoldsUnderRace({
      tries: 20,
      created: 3,
      cap: 3,
      create: async (i) => (await add(carol, { host: `race${i}.example.com` })).res,
      stored: async () =>
        countOf(
          await t.query('SELECT COUNT(*) AS n FROM domains WHERE owner_id = ?', [carol.userId]),
        ),
    });
  });
});

describe('claims do not block (squatting)', () => {
  const { dns, t, add, verified, alice, bob, carol, admin } = useApp();

  it('several users claim a host; the first to verify owns it and the other claims are removed; a verified host is taken', async () => {
    const squat = (await add(alice, { host: 'real-brand.test' })).body as Domain;
    const other = (await add(carol, { host: 'real-brand.test' })).body as Domain;
    const owner = (await add(bob, { host: 'real-brand.test' })).body as Domain;
    expect([squat, other, owner].every((d) => d && !d.verified)).toBe(true);
    // A short on a pending domain is refused: its shorts would land on whoever verifies it.
    const onPending = await expectProblem(
      await alice.post('/api/code', { url: 'https://example.com/x', domain: 'real-brand.test' }),
      400,
    );
    expect((onPending as Keys).fieldErrorKeys?.domain).toBe('domain_unknown');
    dns.answers.set('_url-shorter.real-brand.test', { txt: [[owner.verification.value]] });
    const res = await bob.post(`/api/domains/${owner.id}/verify`, {});
    expect(await res.json()).toMatchObject({ id: owner.id, verified: true });
    expect((await listOf(alice)).map((d) => d.id)).not.toContain(squat.id);
    expect((await listOf(carol)).map((d) => d.id)).not.toContain(other.id);
    expect(
      (await expectProblem(await alice.post(`/api/domains/${squat.id}/verify`, {}), 404)).errorKey,
    ).toBe('domain_unknown');
    for (const u of [alice, carol]) {
      expect(
        (await expectProblem((await add(u, { host: 'REAL-brand.test' })).res, 409)).errorKey,
      ).toBe('domain_taken');
    }
    expect(
      (await expectProblem((await add(admin, { host: 'real-brand.test', shared: true })).res, 409))
        .errorKey,
    ).toBe('domain_taken');
    expect(t.app.get(DomainRegistry).get('real-brand.test')?.id).toBe(owner.id);
    expect(
      (await bob.post('/api/code', { url: 'https://example.com/b', domain: 'real-brand.test' }))
        .status,
    ).toBe(201);
  });

  it('several users adding at once all get their domains (the cap takes turns per user, never across users)', async () => {
    const answers = await Promise.all(
      [alice, bob, carol].flatMap((u, i) =>
        Array.from({ length: 6 }, (_, k) => add(u, { host: `at-once-${i}-${k}.example.com` })),
      ),
    );
    expect(answers.map((a) => a.res.status)).toEqual(answers.map(() => 201));
  });

  it('two claims verified at once: one wins, the other is removed with 409 domain_taken', async () => {
    const a = (await add(alice, { host: 'both.example.com' })).body as Domain;
    const b = (await add(bob, { host: 'both.example.com' })).body as Domain;
    dns.answers.set('_url-shorter.both.example.com', {
      txt: [[a.verification.value], [b.verification.value]],
    });
    const [ra, rb] = await Promise.all([
      alice.post(`/api/domains/${a.id}/verify`, {}),
      bob.post(`/api/domains/${b.id}/verify`, {}),
    ]);
    const statuses = [ra.status, rb.status].sort();
    expect(statuses[0]).toBe(200);
    expect([404, 409]).toContain(statuses[1]);
    const rows = await t.query<Array<{ id: string; verified_host: string | null }>>(
      'SELECT id, verified_host FROM domains WHERE host = ?',
      ['both.example.com'],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].verified_host).toBe('both.example.com');
  });

  it('a pending claim never shadows the verified domain of its host in the registry', async () => {
    const d = await verified(alice, 'shadow.example.com');
    // A pending row of the same host (as a claim made in the instant of the verification).
    await t.query(
      "INSERT INTO domains (id, host, verified_host, owner_id, verified, enabled, token, created_at) VALUES (?, 'shadow.example.com', NULL, ?, 0, 1, 'tok', ?)",
      [
        randomUUID(),
        bob.userId,
        TEST_DB_KIND === 'sqlite' ? '2026-01-01 00:00:00.000' : new Date(),
      ],
    );
    const registry = t.app.get(DomainRegistry);
    await registry.reload();
    expect(registry.get('shadow.example.com')).toMatchObject({ id: d.id, verified: true });
    expect(registry.followable('shadow.example.com')?.id).toBe(d.id);
  });

  it('a pending claim expires after 7 days (the hourly job); verified domains and younger claims stay', async () => {
    const old = (await add(carol, { host: 'old-claim.example.com' })).body as Domain;
    const young = (await add(carol, { host: 'young-claim.example.com' })).body as Domain;
    const kept = await verified(carol, 'kept.example.com');
    const past = new Date(Date.now() - CLAIM_TTL_MS - 60_000);
    await t.query('UPDATE domains SET created_at = ? WHERE id IN (?, ?)', [
      TEST_DB_KIND === 'sqlite' ? past.toISOString().slice(0, 23).replace('T', ' ') : past,
      old.id,
      kept.id,
    ]);
    const removed = await t.app.get(DomainCheckJob).runClaims(new Date());
    expect(removed).toBeGreaterThanOrEqual(1);
    const ids = (await listOf(carol)).map((d) => d.id);
    expect(ids).not.toContain(old.id);
    expect(ids).toContain(young.id);
    expect(ids).toContain(kept.id);
  });
});

describe('domain redirects follow the target rules', () => {
  const { t, add, verified, alice, admin } = useApp();
  let own: Domain;

  beforeAll(async () => {
    const entry = await admin.put(`/api/admin/entity/blacklist/${randomUUID()}`, {
      kind: 'host',
      value: 'blocked-probe.test',
      reason: null,
    });
    expect(entry.status).toBe(201);
    own = await verified(alice, 'own.example.com');
    await verified(alice, 'other.example.com');
  });

  it.each([
    ['homeRedirect', 'https://blocked-probe.test/phish', 'url_blacklisted'],
    ['homeRedirect', 'https://sub.blocked-probe.test/', 'url_blacklisted'],
    ['notFoundRedirect', 'http://own.example.com/loop', 'url_self'],
    ['notFoundRedirect', 'https://OWN.example.com:8443/x', 'url_self'],
    ['homeRedirect', 'http://short.example/s/x', 'url_self'],
    ['notFoundRedirect', 'https://other.example.com/', 'url_self'],
    ['homeRedirect', 'javascript:alert(1)', 'redirect_invalid'],
    ['homeRedirect', 'https://user:pw@brand.example/', 'redirect_invalid'],
  ])('%s %s → 400 %s (edit and create), nothing written', async (field, url, key) => {
    const patched = await expectProblem(
      await alice.patch(`/api/domains/${own.id}`, { [field]: url }),
      400,
    );
    expect(patched.fieldErrors?.[field]).toBeDefined();
    expect((patched as Keys).fieldErrorKeys?.[field]).toBe(key);
    const created = await expectProblem(
      (await add(alice, { host: 'fresh.example.com', [field]: url })).res,
      400,
    );
    expect((created as Keys).fieldErrorKeys?.[field]).toBe(key);
    const now = (await listOf(alice)).find((d) => d.id === own.id) as unknown as Record<
      string,
      unknown
    >;
    expect(now[field]).toBeNull();
    expect((await listOf(alice)).map((d) => d.host)).not.toContain('fresh.example.com');
  });

  it('a fair redirect passes', async () => {
    const res = await alice.patch(`/api/domains/${own.id}`, {
      homeRedirect: 'https://brand.example/',
      notFoundRedirect: 'https://brand.example/404',
    });
    expect(res.status).toBe(200);
    void t;
  });
});

/** Holds a write lock from outside the app for `ms`: SQLite's write lock, else the domain's row. */
async function holdLock(t: TestApp, domainId: string, ms: number): Promise<() => Promise<void>> {
  if (TEST_DB_KIND === 'sqlite') {
    const db = new Database(t.config.db.file);
    db.exec('BEGIN IMMEDIATE');
    const release = pause(ms).then(() => {
      db.exec('COMMIT');
      db.close();
    });
    return () => release;
  }
  const runner = t.ds.createQueryRunner();
  await runner.connect();
  await runner.startTransaction();
  await runner.query(
    TEST_DB_KIND === 'postgres'
      ? 'SELECT id FROM domains WHERE id = $1 FOR UPDATE'
      : 'SELECT id FROM domains WHERE id = ? FOR UPDATE',
    [domainId],
  );
  const release = pause(ms).then(async () => {
    await runner.commitTransaction();
    await runner.release();
  });
  return () => release;
}

describe('deleting a domain and putting a short onto it are exclusive', () => {
  const { t, alice, admin } = useApp({ DB_TIMEOUT_MS: '5000' });
  let round = 0;

  /** One round: a shared domain, then its delete and a write of a short onto it at once. */
  async function race(kind: 'create' | 'move' | 'import', lockMs: number) {
    const host = `race${round++}.example.com`;
    const res = await admin.post('/api/domains', { host, shared: true });
    expect(res.status).toBe(201);
    const d = (await res.json()) as Domain;
    let moveId = '';
    if (kind === 'move') {
      const made = await alice.post('/api/code', { url: 'https://example.com/m' });
      const { code } = (await made.json()) as { code: string };
      moveId = (
        (await (await alice.fetch(`/api/code/${code}?redirect=false`)).json()) as {
          id: string;
        }
      ).id;
    }
    const release = lockMs ? await holdLock(t, d.id, lockMs) : null;
    const write = (): Promise<Response> => {
      const url = `https://example.com/${kind}/${round}`;
      if (kind === 'create') return alice.post('/api/code', { url, domain: host });
      if (kind === 'move') return alice.patch(`/api/code/${moveId}`, { domain: host });
      return alice.post('/api/code/import', { csv: `url,domain\n${url},${host}\n` });
    };
    const [deleted, written] = await Promise.all([admin.delete(`/api/domains/${d.id}`), write()]);
    await release?.();
    let wrote = written.status === 201 || written.status === 200;
    if (kind === 'import') {
      expect(written.status).toBe(200);
      const body = (await written.json()) as {
        created: number;
        skipped: Array<{ errorKey: string }>;
      };
      wrote = body.created === 1;
      if (!wrote) expect(body.skipped[0].errorKey).toBe('domain_unknown');
    } else if (!wrote) {
      expect(written.status, kind).toBe(400);
      expect(((await written.json()) as Keys).fieldErrorKeys?.domain).toBe('domain_unknown');
    }
    if (deleted.status === 204) expect(wrote, `${kind}: deleted and written`).toBe(false);
    else {
      expect(deleted.status).toBe(409);
      expect(wrote, `${kind}: neither`).toBe(true);
    }
    return deleted.status === 204 ? 'deleted' : 'written';
  }

  async function orphans(): Promise<number> {
    const rows = await t.query<Array<{ n: number | string }>>(
      "SELECT COUNT(*) AS n FROM shorts s WHERE s.domain <> '' AND NOT EXISTS (SELECT 1 FROM domains d WHERE d.verified_host = s.domain)",
    );
    return Number(rows[0].n);
  }

  it('10 rounds with a 150 ms write lock held outside: never both', async () => {
    for (let i = 0; i < 10; i++) await race('create', 150);
    for (let i = 0; i < 4; i++) await race('move', 150);
    for (let i = 0; i < 4; i++) await race('import', 150);
    expect(await orphans()).toBe(0);
  });

  it('many rounds at once of delete against create, move and import: answers agree, no short on a deleted domain', async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 10; i++) {
      outcomes.push(
        ...(await Promise.all([race('create', 0), race('move', 0), race('import', 0)])),
      );
    }
    expect(outcomes).toHaveLength(30);
    expect(await orphans()).toBe(0);
  });

  it('a domain whose shorts exist stays; the main host’s creates are untouched', async () => {
    expect((await alice.post('/api/code', { url: 'https://example.com/plain' })).status).toBe(201);
    expect(await orphans()).toBe(0);
  });
});
