import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ShortDto } from '../../src/shorts/dto/short.dto';
import { FollowService } from '../../src/follow/follow.service';
import { ShortEntity } from '../../src/shorts/short.entity';
import { useTestApp } from '../support/app';
import { addVerifiedDomain, useDomainsApp } from '../support/domains';
import { type LoggedIn, useLogin } from '../support/login';
import { getOnHost } from '../support/on-host';
import { expectProblem, type ProblemBody } from '../support/problem';
import { createShort } from '../support/shorts';
import { BROWSER_UA } from '../support/user-agent';
import { pause } from '../support/wait';

/** A refusal's problem with its `fieldErrorKeys`. */
const refusal = async (res: Response) =>
  (await expectProblem(res, 400)) as ProblemBody & { fieldErrorKeys?: Record<string, string> };

const rule = (url: string, query = 'r=1') => ({
  url,
  conditions: [{ type: 'query', value: query }],
});

/**
 * CONTRACT "Hardening": no loops, no chains. A short's url, rule urls and expiredUrl may not point
 * at any host this instance serves: the main host and every verified, enabled own or shared domain.
 */
describe('targets on hosts this instance serves (url_self)', () => {
  const { dns, t } = useDomainsApp();
  const alice = useLogin(t, 'alice');
  const bob = useLogin(t, 'bob');
  const admin = useLogin(t, 'admin');

  const addDomain = async (u: LoggedIn, body: Record<string, unknown>) => {
    const res = await u.post('/api/domains', body);
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as {
      id: string;
      host: string;
      verification: { value: string };
    };
  };

  beforeAll(async () => {
    // alice's own domain, verified through DNS
    await addVerifiedDomain(dns, alice, 'own.self.example');
    // shared domains (verified at once), one of them with an IDN host, one disabled
    await addDomain(admin, { host: 'team.self.example', shared: true });
    await addDomain(admin, { host: 'go.bücher-self.example', shared: true });
    const off = await addDomain(admin, { host: 'off.self.example', shared: true });
    expect((await admin.patch(`/api/domains/${off.id}`, { enabled: false })).status).toBe(200);
    // bob's claim, never verified
    await addDomain(bob, { host: 'pending.self.example' });
  });

  const served = [
    'http://own.self.example/loop1',
    'https://OWN.Self.Example./x',
    'http://own.self.example:80/x',
    'https://own.self.example:443/x',
    'http://own.self.example:8080/x',
    'https://team.self.example/',
    'https://go.bücher-self.example/x',
    'https://GO.XN--BCHER-SELF-9DB.example/x',
    'http://short.example/s/abc',
  ];

  it('the loop of the issue: a short on an own domain pointing at itself is refused', async () => {
    const res = await alice.post('/api/code', {
      url: 'http://own.self.example/loop1',
      code: 'loop1',
      domain: 'own.self.example',
    });
    const body = await refusal(res);
    expect(body.fieldErrorKeys).toEqual({ url: 'url_self' });
    expect(body.fieldErrors?.url).toBe('must not point to this service');
    expect((await getOnHost(t.url, 'own.self.example', '/loop1')).location).not.toBe(
      'http://own.self.example/loop1',
    );
  });

  it.each(served)(
    'refuses %s as url, expiredUrl and rule url (create, anonymous too)',
    async (url) => {
      expect((await refusal(await alice.post('/api/code', { url }))).fieldErrorKeys).toEqual({
        url: 'url_self',
      });
      expect((await refusal(await t.post('/api/code', { url }))).fieldErrorKeys).toEqual({
        url: 'url_self',
      });
      const fallback = await alice.post('/api/code', {
        url: 'https://example.com/',
        expiredUrl: url,
      });
      expect((await refusal(fallback)).fieldErrorKeys).toEqual({ expiredUrl: 'url_self' });
      const rules = await alice.post('/api/code', {
        url: 'https://example.com/',
        rules: [rule('https://example.com/fine'), rule(url)],
      });
      const body = await refusal(rules);
      expect(body.fieldErrorKeys).toEqual({ rules: 'url_self' });
      expect(body.fieldErrors?.rules).toBe('rule 2: url must not point to this service');
    },
  );

  it('an edit (PATCH) is refused the same way and changes nothing', async () => {
    const s = await createShort(alice, { url: 'https://example.com/keep' });
    for (const [field, value] of [
      ['url', 'https://team.self.example/x'],
      ['expiredUrl', 'http://own.self.example/gone'],
      ['rules', [rule('https://go.xn--bcher-self-9db.example/')]],
    ] as const) {
      const body = await refusal(await alice.patch(`/api/code/${s.id}`, { [field]: value }));
      expect(body.fieldErrorKeys, field).toEqual({ [field]: 'url_self' });
    }
    const info = (await (
      await alice.fetch(`/api/code/${s.code}?redirect=false`)
    ).json()) as ShortDto;
    expect(info).toMatchObject({ url: 'https://example.com/keep', expiredUrl: null, rules: [] });
  });

  it('an import skips such rows with url_self', async () => {
    const res = await alice.post('/api/code/import', {
      rows: [
        { url: 'https://example.com/ok', code: 'self-imp-ok' },
        { url: 'https://own.self.example/x', code: 'self-imp-url' },
        {
          url: 'https://example.com/',
          code: 'self-imp-exp',
          expiredUrl: 'https://team.self.example/',
        },
      ],
    });
    expect(res.status).toBe(200);
    const result = (await res.json()) as {
      created: number;
      skipped: Array<{ code: string; errorKey: string }>;
    };
    expect(result.created).toBe(1);
    expect(Object.fromEntries(result.skipped.map((s) => [s.code, s.errorKey]))).toEqual({
      'self-imp-url': 'url_self',
      'self-imp-exp': 'url_self',
    });
  });

  it('hosts this instance does not serve are fine: pending or disabled domains, other names', async () => {
    for (const url of [
      'https://pending.self.example/x',
      'https://off.self.example/x',
      'https://www.own.self.example/x',
      'https://sub.team.self.example/x',
      'https://self.example/x',
    ]) {
      const res = await alice.post('/api/code', { url, expiredUrl: url, rules: [rule(url)] });
      expect(res.status, `${url}: ${await res.clone().text()}`).toBe(201);
    }
  });
});

/**
 * CONTRACT "Hardening": danger wins over every target. A flagged short answers its warning page also
 * after it expired or ran out of uses; expiredUrl and rule urls are checked against the blacklist at
 * create, edit and follow time; `dangers` names a short whose rule url or expiredUrl is blacklisted.
 */
describe('danger wins over every target', () => {
  const t = useTestApp({ AUTH_DEV_LOGIN: 'true', ADMIN_USERS: 'dev:admin' });
  const alice = useLogin(t, 'alice');
  const admin = useLogin(t, 'admin');
  const BOT = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

  const to = async (path: string, ua = BROWSER_UA) =>
    (await t.fetch(path, { headers: { 'user-agent': ua } })).headers.get('location');
  const flag = async (id: string) =>
    expect((await admin.put(`/api/admin/entity/shorts/${id}`, { dangerous: true })).status).toBe(
      200,
    );
  const blacklist = async (host: string) =>
    expect(
      (
        await admin.put(`/api/admin/entity/blacklist/${randomUUID()}`, {
          kind: 'host',
          value: host,
          reason: null,
        })
      ).status,
    ).toBe(201);
  /** Sets a short's expiry into the past (the API refuses a past date) and drops it from the cache. */
  const expire = async (s: { id: string; code: string }) => {
    await t.ds
      .getRepository(ShortEntity)
      .update({ id: s.id }, { expireAt: new Date(Date.now() - 1000) });
    t.app.get(FollowService).invalidate(s.code);
  };
  const info = async (u: LoggedIn | typeof t, code: string) =>
    (await (await u.fetch(`/api/code/${code}?redirect=false`)).json()) as ShortDto;

  it('the issue: a flagged short whose owner sets an expiredUrl and a near expiry still warns after it expired', async () => {
    const s = await createShort(alice, { url: 'https://example.com/flagged' });
    await flag(s.id);
    const warning = `/s/${s.code}/potentially-dangerous`;
    expect(await to(`/s/${s.code}`)).toBe(warning);
    const expireAt = Date.now() + 3000; // room for the PATCH on a loaded machine
    const patched = await alice.patch(`/api/code/${s.id}`, {
      expiredUrl: 'https://bad-stuff.example/again',
      expireAt: new Date(expireAt).toISOString(),
    });
    expect(patched.status, await patched.clone().text()).toBe(200);
    expect(await to(`/s/${s.code}`)).toBe(warning); // cached again before the expiry
    // The short's expiry has to pass: nothing else makes it expire through the API.
    await pause(Math.max(0, expireAt - Date.now()) + 300);
    expect(await to(`/s/${s.code}`)).toBe(warning);
    expect(await to(`/s/${s.code}`, BOT)).toBe(warning);
    expect(await to(`/api/code/${s.code}`)).toBe(warning);
    // Accepting the danger leads to the expiry answer, never past it.
    expect(await to(`/s/${s.code}?accept_danger=true`)).toBe('https://bad-stuff.example/again');
    // Without a fallback the flag still answers first (as the short did while it lived);
    // accepting it leads to the not-found page, which tells nothing beyond the reason.
    await alice.patch(`/api/code/${s.id}`, { expiredUrl: null });
    expect(await to(`/s/${s.code}`)).toBe(warning);
    expect(await to(`/s/${s.code}?accept_danger=true`)).toBe(
      `/s/${s.code}/not-found?reason=expired`,
    );
  });

  it('a flagged short that ran out of uses warns too before its expiredUrl; accepting leads there', async () => {
    const s = await createShort(alice, {
      url: 'https://example.com/limited',
      maxUses: 1,
      expiredUrl: 'https://example.com/spent',
    });
    expect(await to(`/s/${s.code}`)).toBe('https://example.com/limited');
    expect(await to(`/s/${s.code}`)).toBe('https://example.com/spent'); // used up (cached so)
    await flag(s.id);
    const warning = `/s/${s.code}/potentially-dangerous`;
    expect(await to(`/s/${s.code}`)).toBe(warning); // read afresh: used up and flagged
    expect(await to(`/s/${s.code}`)).toBe(warning); // the cached "used up"
    expect(await to(`/s/${s.code}`, BOT)).toBe(warning);
    expect(await to(`/s/${s.code}?accept_danger=true`)).toBe('https://example.com/spent');

    // Used up by the follow itself (a flagged short followed with accept_danger): the cached
    // "used up" keeps the flag.
    const u = await createShort(alice, {
      url: 'https://example.com/once',
      maxUses: 1,
      expiredUrl: 'https://example.com/once-over',
    });
    await flag(u.id);
    expect(await to(`/s/${u.code}?accept_danger=true`)).toBe('https://example.com/once');
    expect(await to(`/s/${u.code}`)).toBe(`/s/${u.code}/potentially-dangerous`);
    expect(await to(`/s/${u.code}?accept_danger=true`)).toBe('https://example.com/once-over');
    // Without a fallback: the warning first, then the not-found page.
    await alice.patch(`/api/code/${u.id}`, { expiredUrl: null });
    expect(await to(`/s/${u.code}`)).toBe(`/s/${u.code}/potentially-dangerous`);
    expect(await to(`/s/${u.code}?accept_danger=true`)).toBe(
      `/s/${u.code}/not-found?reason=used-up`,
    );
  });

  it('a blacklisted expiredUrl is refused at create and edit, and answers as dangerous at follow time', async () => {
    await blacklist('blocked-fallback.example');
    const created = await alice.post('/api/code', {
      url: 'https://example.com/',
      expiredUrl: 'https://blocked-fallback.example/',
    });
    expect((await expectProblem(created, 400)).errorKey).toBe('url_blacklisted');
    const s = await createShort(alice, {
      url: 'https://example.com/live',
      expiredUrl: 'https://later-fallback.example/over',
    });
    const edited = await alice.patch(`/api/code/${s.id}`, {
      expiredUrl: 'https://www.blocked-fallback.example/x',
    });
    expect((await expectProblem(edited, 400)).errorKey).toBe('url_blacklisted');

    await expire(s);
    expect(await to(`/s/${s.code}`)).toBe('https://later-fallback.example/over'); // now cached
    await blacklist('later-fallback.example');
    const warning = `/s/${s.code}/potentially-dangerous`;
    expect(await to(`/s/${s.code}`)).toBe(warning);
    expect(await to(`/s/${s.code}`, BOT)).toBe(warning);
    expect(await to(`/s/${s.code}?accept_danger=true`)).toBe('https://later-fallback.example/over');

    // Used up, with a blacklisted expiredUrl: the same.
    const u = await createShort(alice, {
      url: 'https://example.com/one',
      maxUses: 1,
      expiredUrl: 'https://used-fallback.example/',
    });
    expect(await to(`/s/${u.code}`)).toBe('https://example.com/one');
    expect(await to(`/s/${u.code}`)).toBe('https://used-fallback.example/');
    await blacklist('used-fallback.example');
    expect(await to(`/s/${u.code}`)).toBe(`/s/${u.code}/potentially-dangerous`);
    expect(await to(`/s/${u.code}?accept_danger=true`)).toBe('https://used-fallback.example/');
  });

  it('a blacklisted rule url is refused at create and edit', async () => {
    await blacklist('blocked-rule.example');
    const created = await alice.post('/api/code', {
      url: 'https://example.com/',
      rules: [rule('https://blocked-rule.example/x')],
    });
    expect((await refusal(created)).fieldErrorKeys).toEqual({ rules: 'rule_url_blacklisted' });
    const s = await createShort(alice, { url: 'https://example.com/' });
    const edited = await alice.patch(`/api/code/${s.id}`, {
      rules: [rule('https://sub.blocked-rule.example/x')],
    });
    expect((await refusal(edited)).fieldErrorKeys).toEqual({ rules: 'rule_url_blacklisted' });
  });

  it('`dangers` names a short whose rule url or expiredUrl is blacklisted', async () => {
    const byRule = await createShort(alice, {
      url: 'https://example.com/a',
      rules: [rule('https://fine.example/x'), rule('https://rule-later.example/x', 'r=2')],
    });
    const byFallback = await createShort(alice, {
      url: 'https://example.com/b',
      expiredUrl: 'https://fallback-later.example/x',
    });
    const clean = await createShort(alice, {
      url: 'https://example.com/c',
      rules: [rule('https://fine.example/y')],
      expiredUrl: 'https://fine.example/z',
    });
    for (const s of [byRule, byFallback, clean]) expect(s.short.dangers).toBe(false);
    await blacklist('rule-later.example');
    await blacklist('fallback-later.example');
    for (const [s, dangers] of [
      [byRule, true],
      [byFallback, true],
      [clean, false],
    ] as const) {
      expect((await info(alice, s.code)).dangers, s.short.url ?? '').toBe(dangers);
      expect((await info(t, s.code)).dangers, s.short.url ?? '').toBe(dangers);
    }
    const own = (await (await alice.fetch('/api/code?size=100')).json()) as { content: ShortDto[] };
    const listed = Object.fromEntries(own.content.map((s) => [s.id, s.dangers]));
    expect([listed[byRule.id], listed[byFallback.id], listed[clean.id]]).toEqual([
      true,
      true,
      false,
    ]);
    // The follow of a blacklisted rule's visitors is dangerous (as before); others go on.
    expect(await to(`/s/${byRule.code}?r=2`)).toBe(`/s/${byRule.code}/potentially-dangerous`);
    expect(await to(`/s/${byRule.code}?r=1`)).toBe('https://fine.example/x');
  });
});
