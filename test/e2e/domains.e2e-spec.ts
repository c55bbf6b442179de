import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISABLE_AFTER_MS, DomainCheckJob } from '../../src/domains/domain-check.job';
import { DomainRegistry } from '../../src/domains/domain-registry';
import { createTestApp, type TestApp } from '../support/app';
import { FakeDns } from '../support/fake-dns';
import { loginAs, type LoggedIn } from '../support/login';
import { expectProblem } from '../support/problem';

interface Domain {
  id: string;
  host: string;
  owner: { username: string } | null;
  verified: boolean;
  enabled: boolean;
  homeRedirect: string | null;
  notFoundRedirect: string | null;
  verification: {
    record: string;
    value: string;
    token: string;
    target: string;
    checkedAt: string | null;
    failingSince: string | null;
    reason: string | null;
  };
}

/** CONTRACT "Own domains": domains, their rights, DNS verification against a loopback server. */
describe('own domains', () => {
  const dns = new FakeDns();
  let t: TestApp;
  let alice: LoggedIn;
  let bob: LoggedIn;
  let admin: LoggedIn;

  beforeAll(async () => {
    await dns.start();
    t = await createTestApp({
      AUTH_DEV_LOGIN: 'true',
      ADMIN_USERS: 'dev:admin',
      BASE_URL: 'http://short.example',
      DNS_SERVERS: dns.server,
      DNS_TIMEOUT_MS: '500',
    });
    [alice, bob, admin] = await Promise.all([
      loginAs(t, 'alice'),
      loginAs(t, 'bob'),
      loginAs(t, 'admin'),
    ]);
  });
  afterAll(async () => {
    await t?.close();
    await dns.stop();
  });

  const add = async (u: LoggedIn, body: Record<string, unknown>) => {
    const res = await u.post('/api/domains', body);
    return { res, body: res.status === 201 ? ((await res.json()) as Domain) : null };
  };
  const verify = async (u: LoggedIn, id: string) =>
    (await (await u.post(`/api/domains/${id}/verify`, {})).json()) as Domain;

  it('a user adds a domain: normalised, pending, with the TXT record to create', async () => {
    const { res, body } = await add(alice, { host: 'Go.Bücher.Example.' });
    expect(res.status).toBe(201);
    expect(body).toMatchObject({
      host: 'go.xn--bcher-kva.example',
      owner: { username: 'alice' },
      verified: false,
      enabled: true,
      verification: {
        record: '_url-shorter.go.xn--bcher-kva.example',
        target: 'short.example',
        checkedAt: null,
        reason: null,
      },
    });
    expect(body?.verification.value).toBe(`url-shorter-verify=${body?.verification.token}`);
    // Unique across the instance.
    expect(
      (await expectProblem((await add(bob, { host: 'go.bücher.example' })).res, 409)).errorKey,
    ).toBe('domain_taken');
  });

  it.each([
    ['https://go.example.com', 'domain_invalid'],
    ['go.example.com:8443', 'domain_invalid'],
    ['localhost', 'domain_invalid'],
    ['203.0.113.5', 'domain_invalid'],
    ['short.example', 'domain_main_host'],
  ])('refuses the host %s (%s)', async (host, key) => {
    const problem = await expectProblem((await add(alice, { host })).res, 400);
    expect(problem.fieldErrors?.host).toBeDefined();
    expect((problem as { fieldErrorKeys?: Record<string, string> }).fieldErrorKeys?.host).toBe(key);
  });

  it('verification: the right token verifies; wrong token, no record, NXDOMAIN and a silent resolver say why', async () => {
    const cases: Array<[string, Parameters<FakeDns['answers']['set']>[1] | null, string | null]> = [
      ['wrong.example.com', { txt: [['url-shorter-verify=not-it']] }, 'dns_token_mismatch'],
      ['empty.example.com', null, 'dns_no_record'],
      ['gone.example.com', { nxdomain: true }, 'dns_no_record'],
      ['silent.example.com', { silent: true }, 'dns_timeout'],
    ];
    for (const [host, answer, reason] of cases) {
      const d = (await add(alice, { host })).body as Domain;
      if (answer) dns.answers.set(`_url-shorter.${host}`, answer);
      const start = Date.now();
      const checked = await verify(alice, d.id);
      expect(Date.now() - start, host).toBeLessThan(3000);
      expect(checked.verified, host).toBe(false);
      expect(checked.verification.reason, host).toBe(reason);
      expect(checked.verification.checkedAt, host).not.toBeNull();
    }
    const ok = (await add(alice, { host: 'ok.example.com' })).body as Domain;
    // A long value may come in several strings: joined they are one.
    const value = ok.verification.value;
    dns.answers.set('_url-shorter.ok.example.com', {
      txt: [['v=spf1 -all'], [value.slice(0, 20), value.slice(20)]],
    });
    const verified = await verify(alice, ok.id);
    expect(verified).toMatchObject({ verified: true, enabled: true });
    expect(verified.verification.reason).toBeNull();
    expect(dns.asked).toContain('_url-shorter.ok.example.com');
  });

  it('rights: others see, verify, change and delete nothing of a user’s domain; admins may; shared ones are admins’', async () => {
    const d = (await add(alice, { host: 'rights.example.com' })).body as Domain;
    expect((await (await bob.fetch('/api/domains')).json()) as Domain[]).not.toContainEqual(
      expect.objectContaining({ id: d.id }),
    );
    for (const res of [
      await bob.post(`/api/domains/${d.id}/verify`, {}),
      await bob.patch(`/api/domains/${d.id}`, { homeRedirect: 'https://bob.example/' }),
      await bob.delete(`/api/domains/${d.id}`),
    ]) {
      expect((await expectProblem(res, 403)).errorKey).toBe('not_owner');
    }
    expect(
      (await expectProblem((await add(bob, { host: 'mine.example.com', shared: true })).res, 403))
        .errorKey,
    ).toBe('admin_required');
    const shared = await add(admin, { host: 'team.example.com', shared: true });
    expect(shared.body).toMatchObject({ owner: null, verified: true, enabled: true });
    // Everybody sees the shared domain; only its own domains besides.
    const bobs = (await (await bob.fetch('/api/domains')).json()) as Domain[];
    expect(bobs.map((x) => x.host)).toContain('team.example.com');
    const all = (await (await admin.fetch('/api/domains')).json()) as Domain[];
    expect(all.map((x) => x.host)).toContain('rights.example.com');
    expect((await admin.patch(`/api/domains/${d.id}`, { enabled: false })).status).toBe(200);
    expect(
      (await expectProblem(await alice.patch(`/api/domains/${d.id}`, { enabled: true }), 403))
        .errorKey,
    ).toBe('admin_required');
    expect((await expectProblem(await t.fetch('/api/domains'), 401)).errorKey).toBe('unauthorized');
  });

  it('redirects: absolute http(s) only; null clears', async () => {
    const d = (await add(alice, { host: 'redirects.example.com' })).body as Domain;
    const bad = await expectProblem(
      await alice.patch(`/api/domains/${d.id}`, { homeRedirect: 'javascript:alert(1)' }),
      400,
    );
    expect((bad as { fieldErrorKeys?: Record<string, string> }).fieldErrorKeys?.homeRedirect).toBe(
      'redirect_invalid',
    );
    const set = await alice.patch(`/api/domains/${d.id}`, {
      homeRedirect: 'https://brand.example/',
      notFoundRedirect: 'https://brand.example/404',
    });
    expect(await set.json()).toMatchObject({
      homeRedirect: 'https://brand.example/',
      notFoundRedirect: 'https://brand.example/404',
    });
    const cleared = await alice.patch(`/api/domains/${d.id}`, { homeRedirect: null });
    expect(await cleared.json()).toMatchObject({ homeRedirect: null });
    expect((await alice.delete(`/api/domains/${d.id}`)).status).toBe(204);
  });

  it('allowed (for on-demand TLS): the main host and verified, enabled domains only', async () => {
    const status = async (domain: string) =>
      (await t.fetch(`/api/domains/allowed?domain=${encodeURIComponent(domain)}`)).status;
    expect(await status('short.example')).toBe(200);
    expect(await status('ok.example.com')).toBe(200);
    expect(await status('OK.example.com')).toBe(200);
    expect(await status('team.example.com')).toBe(200);
    expect(await status('wrong.example.com')).toBe(404); // not verified
    expect(await status('rights.example.com')).toBe(404); // disabled
    expect(await status('elsewhere.example')).toBe(404);
    expect((await t.fetch('/api/domains/allowed')).status).toBe(404);
  });

  it('the daily re-check disables a verified domain after 7 days of failures and enables it when it passes again', async () => {
    const d = (await add(bob, { host: 'daily.example.com' })).body as Domain;
    dns.answers.set('_url-shorter.daily.example.com', { txt: [[d.verification.value]] });
    expect((await verify(bob, d.id)).verified).toBe(true);
    const job = t.app.get(DomainCheckJob);
    const registry = t.app.get(DomainRegistry);
    dns.answers.delete('_url-shorter.daily.example.com');
    const day0 = new Date();
    await job.run(day0);
    let now = (await (await bob.fetch('/api/domains')).json()) as Domain[];
    expect(now.find((x) => x.id === d.id)).toMatchObject({
      enabled: true,
      verification: { reason: 'dns_no_record', failingSince: day0.toISOString() },
    });
    await job.run(new Date(day0.getTime() + DISABLE_AFTER_MS));
    await registry.reload();
    now = (await (await bob.fetch('/api/domains')).json()) as Domain[];
    expect(now.find((x) => x.id === d.id)).toMatchObject({ verified: true, enabled: false });
    expect(registry.followable('daily.example.com')).toBeUndefined();
    dns.answers.set('_url-shorter.daily.example.com', { txt: [[d.verification.value]] });
    await job.run(new Date(day0.getTime() + DISABLE_AFTER_MS + 86_400_000));
    await registry.reload();
    expect(registry.followable('daily.example.com')).toBeDefined();
  });
});
