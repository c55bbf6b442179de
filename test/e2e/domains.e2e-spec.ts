import { beforeAll, describe, expect, it } from 'vitest';
import { DISABLE_AFTER_MS, DomainCheckJob } from '../../src/domains/domain-check.job';
import { DomainRegistry } from '../../src/domains/domain-registry';
import { useDomainsApp } from '../support/domains';
import type { FakeDns } from '../support/fake-dns';
import { type LoggedIn, useLogin } from '../support/login';
import { getOnHost } from '../support/on-host';
import { expectProblem } from '../support/problem';
import { insertShort } from '../support/shorts';

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
/** The app of a block: dev logins alice, bob and admin, verification against a loopback DNS server. */
function useOwnDomainsApp() {
  const { dns, t } = useDomainsApp();
  return {
    dns,
    t,
    alice: useLogin(t, 'alice'),
    bob: useLogin(t, 'bob'),
    admin: useLogin(t, 'admin'),
  };
}

describe('own domains', () => {
  const { dns, t, alice, bob, admin } = useOwnDomainsApp();

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
    // One claim per user and host; another user may claim it too while it is pending (CONTRACT
    // "Hardening": claims do not block; the first to verify it owns it).
    expect(
      (await expectProblem((await add(alice, { host: 'go.bücher.example' })).res, 409)).errorKey,
    ).toBe('domain_taken');
    const bobs = await add(bob, { host: 'go.bücher.example' });
    expect(bobs.res.status).toBe(201);
    expect((await bob.delete(`/api/domains/${bobs.body?.id}`)).status).toBe(204);
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

describe('shorts on own domains', () => {
  const { dns, t, alice, bob, admin } = useOwnDomainsApp();
  let go: Domain;

  beforeAll(async () => {
    go = (await (await alice.post('/api/domains', { host: 'go.example.com' })).json()) as Domain;
    dns.answers.set('_url-shorter.go.example.com', { txt: [[go.verification.value]] });
    go = (await (await alice.post(`/api/domains/${go.id}/verify`, {})).json()) as Domain;
    expect(go.verified).toBe(true);
    expect(
      (await admin.post('/api/domains', { host: 'team.example.com', shared: true })).status,
    ).toBe(201);
  });

  const create = (u: LoggedIn, body: Record<string, unknown>) => u.post('/api/code', body);

  it('codes are per domain: the same code on the main host and on a domain are two shorts', async () => {
    expect((await create(alice, { url: 'https://example.com/main', code: 'launch' })).status).toBe(
      201,
    );
    const onDomain = await create(alice, {
      url: 'https://example.com/brand',
      code: 'launch',
      domain: 'GO.example.com',
    });
    expect(onDomain.status).toBe(201);
    expect(
      (
        await expectProblem(
          await create(alice, {
            url: 'https://x.example',
            code: 'launch',
            domain: 'go.example.com',
          }),
          409,
        )
      ).errorKey,
    ).toBe('code_exists');
    const list = (await (await alice.fetch('/api/code?search=launch')).json()) as {
      content: Array<{ domain: string | null; shortUrl: string; code: string }>;
    };
    expect(list.content.map((s) => [s.domain, s.shortUrl]).sort()).toEqual([
      [null, 'http://short.example/s/launch'],
      ['go.example.com', 'http://go.example.com/launch'],
    ]);
  });

  it('following by Host: /{code} and /s/{code} on the domain, the main host’s own shorts elsewhere', async () => {
    expect((await getOnHost(t.url, 'go.example.com', '/launch')).location).toBe(
      'https://example.com/brand',
    );
    expect((await getOnHost(t.url, 'go.example.com:443', '/s/launch')).location).toBe(
      'https://example.com/brand',
    );
    expect((await getOnHost(t.url, 'short.example', '/s/launch')).location).toBe(
      'https://example.com/main',
    );
    // A host that is no verified domain is the main host: it never reaches a domain's shorts.
    expect((await getOnHost(t.url, 'evil.example', '/s/launch')).location).toBe(
      'https://example.com/main',
    );
    // The main host follows /{code} too (CONTRACT "Following a short"): its own short, never the domain's.
    expect((await getOnHost(t.url, 'evil.example', '/launch')).location).toBe(
      'https://example.com/main',
    );
    // The info call made from the domain's pages resolves its codes there.
    const info = await getOnHost(t.url, 'go.example.com', '/api/code/launch?redirect=false');
    expect(JSON.parse(info.body)).toMatchObject({
      domain: 'go.example.com',
      url: 'https://example.com/brand',
    });
  });

  it('home and not-found redirects: this service’s pages by default, the domain’s own when set', async () => {
    expect((await getOnHost(t.url, 'go.example.com', '/')).location).toBe('http://short.example/');
    expect((await getOnHost(t.url, 'go.example.com', '/nope')).location).toBe(
      'http://short.example/s/nope/not-found',
    );
    // An expired short's visitor is told so on this service's page; the domain's own page as is.
    await insertShort(t, {
      code: 'gone',
      domain: 'go.example.com',
      expireAt: new Date(Date.now() - 1000),
    });
    expect((await getOnHost(t.url, 'go.example.com', '/gone')).location).toBe(
      'http://short.example/s/gone/not-found?reason=expired',
    );
    await alice.patch(`/api/domains/${go.id}`, {
      homeRedirect: 'https://brand.example/',
      notFoundRedirect: 'https://brand.example/404',
    });
    expect((await getOnHost(t.url, 'go.example.com', '/')).location).toBe('https://brand.example/');
    expect((await getOnHost(t.url, 'go.example.com', '/nope')).location).toBe(
      'https://brand.example/404',
    );
    expect((await getOnHost(t.url, 'go.example.com', '/gone')).location).toBe(
      'https://brand.example/404',
    );
    // Other kinds of answers stay on the domain (its pages are served there too).
    const pw = await create(alice, {
      url: 'https://example.com/pw',
      code: 'secret',
      password: 'pw',
      domain: 'go.example.com',
    });
    expect(pw.status).toBe(201);
    expect((await getOnHost(t.url, 'go.example.com', '/secret')).location).toBe(
      '/s/secret/password-required',
    );
  });

  it('a disabled domain answers its not-found redirect; nothing is deleted', async () => {
    expect((await admin.patch(`/api/domains/${go.id}`, { enabled: false })).status).toBe(200);
    expect((await getOnHost(t.url, 'go.example.com', '/launch')).location).toBe(
      'https://brand.example/404',
    );
    expect((await admin.patch(`/api/domains/${go.id}`, { enabled: true })).status).toBe(200);
    expect((await getOnHost(t.url, 'go.example.com', '/launch')).location).toBe(
      'https://example.com/brand',
    );
  });

  it('rights: another user’s domain is 403, an unknown one 400, shared ones are everybody’s, anonymous callers have none', async () => {
    expect(
      (
        await expectProblem(
          await create(bob, { url: 'https://x.example', domain: 'go.example.com' }),
          403,
        )
      ).errorKey,
    ).toBe('domain_forbidden');
    const unknown = await expectProblem(
      await create(bob, { url: 'https://x.example', domain: 'nowhere.example' }),
      400,
    );
    expect((unknown as { fieldErrorKeys?: Record<string, string> }).fieldErrorKeys?.domain).toBe(
      'domain_unknown',
    );
    expect(
      (
        await create(bob, {
          url: 'https://x.example',
          code: 'team-link',
          domain: 'team.example.com',
        })
      ).status,
    ).toBe(201);
    const anon = await expectProblem(
      await t.post('/api/code', { url: 'https://x.example', domain: 'team.example.com' }),
      400,
    );
    expect((anon as { fieldErrorKeys?: Record<string, string> }).fieldErrorKeys?.domain).toBe(
      'field_not_allowed',
    );
    // Import rows are checked alike.
    const imported = (await (
      await bob.post('/api/code/import', {
        csv: 'url,domain\nhttps://a.example/1,go.example.com\nhttps://a.example/2,team.example.com\n',
      })
    ).json()) as { created: number; skipped: Array<{ row: number; errorKey: string }> };
    expect(imported).toMatchObject({
      created: 1,
      skipped: [{ row: 1, errorKey: 'domain_forbidden' }],
    });
  });

  it('moving a short to another domain (PATCH) checks the code there; export and import carry the domain', async () => {
    const made = (await (
      await create(alice, { url: 'https://example.com/move', code: 'mover' })
    ).json()) as { code: string };
    const id = (
      (await (await alice.fetch(`/api/code/${made.code}?redirect=false`)).json()) as { id: string }
    ).id;
    expect(
      await (await alice.patch(`/api/code/${id}`, { domain: 'go.example.com' })).json(),
    ).toMatchObject({
      domain: 'go.example.com',
      shortUrl: 'http://go.example.com/mover',
    });
    expect((await getOnHost(t.url, 'go.example.com', '/mover')).location).toBe(
      'https://example.com/move',
    );
    expect((await getOnHost(t.url, 'short.example', '/s/mover')).location).toBe(
      '/s/mover/not-found',
    );
    // Back to the main host; a code taken there is a 409.
    expect((await alice.patch(`/api/code/${id}`, { domain: null, code: 'launch' })).status).toBe(
      409,
    );
    const exported = (await (await alice.fetch('/api/code/export?format=json')).json()) as Array<{
      code: string;
      domain: string | null;
    }>;
    expect(exported.find((s) => s.code === 'mover')?.domain).toBe('go.example.com');
    const csv = await (await alice.fetch('/api/code/export')).text();
    expect(csv.split('\r\n')[0]).toBe(
      'id,domain,code,name,url,hasPassword,maxUses,uses,visits,createdAt,expireAt,expiredUrl,rules,team,tags,preview,qrStyle',
    );
  });

  it('a domain with shorts is not deleted (409 domain_in_use)', async () => {
    expect((await expectProblem(await alice.delete(`/api/domains/${go.id}`), 409)).errorKey).toBe(
      'domain_in_use',
    );
  });
});
