import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FollowService } from '../../src/follow/follow.service';
import type { ShortDto } from '../../src/shorts/dto/short.dto';
import { ShortEntity } from '../../src/shorts/short.entity';
import { StatisticsRecorder } from '../../src/statistics/recorder';
import { useTestApp } from '../support/app';
import { loginAs, type LoggedIn, useLogin } from '../support/login';
import { expectProblem, type ProblemBody } from '../support/problem';
import { getOnHost } from '../support/on-host';
import { createShort } from '../support/shorts';
import { waitFor } from '../support/wait';

/** A refusal's problem with its `fieldErrorKeys` and `fieldErrorPaths`. */
const refusal = async (res: Response) =>
  (await expectProblem(res, 400)) as ProblemBody & {
    fieldErrorKeys?: Record<string, string>;
    fieldErrorPaths?: Record<string, Array<string | number>>;
  };

const rule = (url: string, ...conditions: Array<[string, string]>) => ({
  url,
  conditions: conditions.map(([type, value]) => ({ type, value })),
});

describe('redirect rules and the expiry fallback: the fields (create, edit, info, export, import)', () => {
  const t = useTestApp({ AUTH_DEV_LOGIN: 'true', ADMIN_USERS: 'dev:admin' });
  const alice = useLogin(t, 'alice');
  const bob = useLogin(t, 'bob');

  const info = async (u: LoggedIn | typeof t, code: string) =>
    (await (await u.fetch(`/api/code/${code}?redirect=false`)).json()) as ShortDto;

  it('a create takes both; its owner sees them, others do not', async () => {
    const rules = [
      rule('https://example.com/app', ['device', 'Mobile'], ['os', 'iOS']),
      rule('https://example.com/de', ['language', 'de']),
    ];
    const s = await createShort(alice, { rules, expiredUrl: 'https://example.com/ended' });
    expect(s.short.rules).toEqual([
      rule('https://example.com/app', ['device', 'mobile'], ['os', 'ios']),
      rule('https://example.com/de', ['language', 'de']),
    ]);
    expect(s.short.expiredUrl).toBe('https://example.com/ended');
    const foreign = await info(bob, s.code);
    expect(foreign).not.toHaveProperty('rules');
    expect(foreign).not.toHaveProperty('expiredUrl');
    const anonymous = await info(t, s.code);
    expect(anonymous).not.toHaveProperty('rules');
    // The own list carries them.
    const list = (await (await alice.fetch('/api/code?size=250')).json()) as {
      content: ShortDto[];
    };
    expect(list.content.find((x) => x.id === s.id)).toMatchObject({
      rules: s.short.rules,
      expiredUrl: 'https://example.com/ended',
    });
  });

  it('a short without them shows [] and null to its owner', async () => {
    const s = await createShort(alice, {});
    expect(s.short).toMatchObject({ rules: [], expiredUrl: null });
  });

  it('PATCH sets, replaces and clears them (null or [])', async () => {
    const s = await createShort(alice, {});
    const set = await alice.patch(`/api/code/${s.id}`, {
      rules: [rule('https://example.com/q', ['query', 'src=mail'])],
      expiredUrl: 'https://example.com/gone',
    });
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({
      rules: [rule('https://example.com/q', ['query', 'src=mail'])],
      expiredUrl: 'https://example.com/gone',
    });
    const cleared = await alice.patch(`/api/code/${s.id}`, { rules: [], expiredUrl: null });
    expect(await cleared.json()).toMatchObject({ rules: [], expiredUrl: null });
    const rows = await t.query('SELECT rules, expired_url FROM shorts WHERE id = ?', [s.id]);
    expect(rows[0]).toMatchObject({ rules: null, expired_url: null });
    await alice.patch(`/api/code/${s.id}`, {
      rules: [rule('https://example.com/q', ['country', 'de'])],
    });
    const nulled = await alice.patch(`/api/code/${s.id}`, { rules: null });
    expect(await nulled.json()).toMatchObject({ rules: [] });
  });

  it('refuses bad rules with fieldErrors.rules and their errorKey, and changes nothing', async () => {
    const s = await createShort(alice, {
      rules: [rule('https://example.com/keep', ['os', 'linux'])],
    });
    const ok = rule('https://example.com', ['os', 'ios']);
    // The refusal, its key and where it is (fieldErrorPaths.rules; none for the whole list).
    const cases: Array<[unknown, string, Array<string | number>?]> = [
      ['not a list', 'rules_invalid'],
      [[{ url: 'https://example.com', conditions: [] }], 'rules_invalid', ['rules', 0]],
      [Array.from({ length: 11 }, () => ok), 'rules_too_many'],
      [
        [ok, rule('https://example.com', ['os', 'ios'], ['planet', 'mars'])],
        'rule_condition_invalid',
        ['rules', 1, 'conditions', 1],
      ],
      [
        [rule('https://example.com', ['country', 'Deutschland'])],
        'rule_condition_invalid',
        ['rules', 0, 'conditions', 0],
      ],
      [[ok, rule('javascript:alert(1)', ['os', 'ios'])], 'rule_url_invalid', ['rules', 1, 'url']],
      [[rule(`${t.url}/s/${s.code}`, ['os', 'ios'])], 'url_self', ['rules', 0, 'url']],
    ];
    for (const [rules, key, path] of cases) {
      const res = await alice.patch(`/api/code/${s.id}`, { rules });
      const body = await refusal(res);
      const what = JSON.stringify(rules).slice(0, 80);
      expect(body.fieldErrorKeys, what).toEqual({ rules: key });
      expect(body.fieldErrors).toHaveProperty('rules');
      expect(body.fieldErrorPaths, what).toEqual(path && { rules: path });
    }
    expect((await info(alice, s.code)).rules).toEqual([
      rule('https://example.com/keep', ['os', 'linux']),
    ]);
  });

  it('a blacklisted rule url is a field error; a blacklisted expiredUrl is `URL is blacklisted`', async () => {
    const admin = await loginAs(t, 'admin');
    const entry = { kind: 'host', value: 'bad.example', reason: null };
    expect((await admin.put(`/api/admin/entity/blacklist/${randomUUID()}`, entry)).status).toBe(
      201,
    );
    const rules = [rule('https://bad.example/x', ['os', 'ios'])];
    const res = await alice.post('/api/code', { url: 'https://example.com', rules });
    expect((await refusal(res)).fieldErrorKeys).toEqual({
      rules: 'rule_url_blacklisted',
    });
    const fallback = await alice.post('/api/code', {
      url: 'https://example.com',
      expiredUrl: 'https://bad.example/',
    });
    const body = await expectProblem(fallback, 400);
    expect(body).toMatchObject({ detail: 'URL is blacklisted', errorKey: 'url_blacklisted' });
  });

  it('anonymous creates may set neither (field_not_allowed)', async () => {
    const res = await t.post('/api/code', {
      url: 'https://example.com',
      rules: [rule('https://example.com/a', ['os', 'ios'])],
      expiredUrl: 'https://example.com/b',
    });
    expect((await refusal(res)).fieldErrorKeys).toEqual({
      rules: 'field_not_allowed',
      expiredUrl: 'field_not_allowed',
    });
  });

  it('export carries them (the rules as JSON text); an import reads them back', async () => {
    const carol = await loginAs(t, 'carol');
    const rules = [rule('https://example.com/m', ['device', 'mobile'], ['country', 'DE'])];
    await createShort(carol, {
      code: 'rules-export',
      rules,
      expiredUrl: 'https://example.com/over',
    });
    const json = (await (await carol.fetch('/api/code/export?format=json')).json()) as Array<
      Record<string, unknown>
    >;
    expect(json[0]).toMatchObject({
      code: 'rules-export',
      expiredUrl: 'https://example.com/over',
    });
    expect(JSON.parse(json[0].rules as string)).toEqual(rules);
    const csv = await (await carol.fetch('/api/code/export')).text();
    await carol.delete(`/api/code/${json[0].id as string}`);
    const imported = await carol.post('/api/code/import', { csv });
    expect(await imported.json()).toEqual({ created: 1, skipped: [] });
    expect(await info(carol, 'rules-export')).toMatchObject({
      rules,
      expiredUrl: 'https://example.com/over',
    });
    // Rows may carry the rules as a list too; bad rules skip the row with their key.
    const rows = await carol.post('/api/code/import', {
      rows: [
        { url: 'https://example.com/1', code: 'rows-list', rules },
        { url: 'https://example.com/2', code: 'rows-bad', rules: '[{"url":"x"}]' },
        { url: 'https://example.com/3', code: 'rows-nojson', rules: 'device=mobile' },
      ],
    });
    expect(await rows.json()).toMatchObject({
      created: 1,
      skipped: [
        { row: 2, code: 'rows-bad', errorKey: 'rules_invalid' },
        { row: 3, code: 'rows-nojson', errorKey: 'rules_invalid' },
      ],
    });
    expect((await info(carol, 'rows-list')).rules).toEqual(rules);
  });
});

const UA = {
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  windows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  bot: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
};

describe('redirect rules and the expiry fallback: following', () => {
  const t = useTestApp({
    AUTH_DEV_LOGIN: 'true',
    ADMIN_USERS: 'dev:admin',
    TRUST_PROXY: 'loopback',
    GEO_COUNTRY_HEADER: 'CF-IPCountry',
  });
  const alice = useLogin(t, 'alice');

  /** Where a follow goes, as a browser (or whoever `headers` say) sends it. */
  const follow = async (path: string, headers: Record<string, string> = {}) => {
    const res = await t.fetch(path, { headers: { 'user-agent': UA.windows, ...headers } });
    return { status: res.status, location: res.headers.get('location'), res };
  };
  const to = async (path: string, headers: Record<string, string> = {}) =>
    (await follow(path, headers)).location;

  const rules = [
    rule('https://example.com/ios', ['device', 'mobile'], ['os', 'ios']),
    rule('https://example.com/android', ['os', 'android']),
    rule('https://example.com/mail', ['query', 'utm_source=mail']),
    rule('https://example.com/en', ['language', 'en']),
    rule('https://example.com/de', ['language', 'de']),
    rule('https://example.com/at', ['country', 'AT']),
  ];

  it('the first matching rule chooses the target; none matching: the url', async () => {
    const s = await createShort(alice, { url: 'https://example.com/default', rules });
    const p = `/s/${s.code}`;
    expect(await to(p, { 'user-agent': UA.iphone })).toBe('https://example.com/ios');
    expect(await to(p, { 'user-agent': UA.android })).toBe('https://example.com/android');
    expect(await to(`${p}?utm_source=mail`)).toBe('https://example.com/mail');
    expect(await to(`${p}?utm_source=web`)).toBe('https://example.com/default');
    expect(await to(p, { 'accept-language': 'de-AT,de;q=0.9,en;q=0.8' })).toBe(
      'https://example.com/de',
    );
    expect(await to(p, { 'accept-language': 'fr,en-US;q=0.9' })).toBe('https://example.com/en');
    expect(await to(p, { 'accept-language': 'fr', 'cf-ipcountry': 'AT' })).toBe(
      'https://example.com/at',
    );
    expect(await to(p, { 'accept-language': 'fr', 'cf-ipcountry': 'CH' })).toBe(
      'https://example.com/default',
    );
    // The API's follow route and the Referrer-Policy of a target.
    const api = await follow(`/api/code/${s.code}`, { 'user-agent': UA.iphone });
    expect(api.location).toBe('https://example.com/ios');
    expect(api.res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(api.res.headers.get('cache-control')).toMatch(/no-store/);
  });

  it('a language rule catches only languages accepted with q >= 0.9, not a second language', async () => {
    const s = await createShort(alice, {
      url: 'https://example.com/default',
      rules: [rule('https://example.com/de', ['language', 'de'])],
    });
    // Chrome's default for an English speaker who added German as a second language.
    for (const path of [`/s/${s.code}`, `/api/code/${s.code}`]) {
      expect(await to(path, { 'accept-language': 'en-US,en;q=0.9,de;q=0.8' })).toBe(
        'https://example.com/default',
      );
      expect(await to(path, { 'accept-language': 'en-US,de;q=0.9' })).toBe(
        'https://example.com/de',
      );
    }
  });

  it('bots and HEAD get the url; the info call is unchanged', async () => {
    const s = await createShort(alice, { url: 'https://example.com/default', rules });
    expect(await to(`/s/${s.code}`, { 'user-agent': UA.bot })).toBe('https://example.com/default');
    const head = await t.fetch(`/s/${s.code}`, {
      method: 'HEAD',
      headers: { 'user-agent': UA.iphone },
    });
    expect(head.headers.get('location')).toBe('https://example.com/default');
    const anonymous = (await (await t.fetch(`/api/code/${s.code}?redirect=false`)).json()) as {
      url: string;
    };
    expect(anonymous.url).toBe('https://example.com/default');
  });

  it('password and danger apply before the rules; a blacklisted rule url is dangerous', async () => {
    const s = await createShort(alice, {
      url: 'https://example.com/default',
      rules,
      password: 'pw',
    });
    expect(await to(`/s/${s.code}`, { 'user-agent': UA.iphone })).toBe(
      `/s/${s.code}/password-required`,
    );
    expect(await to(`/s/${s.code}?password=pw`, { 'user-agent': UA.iphone })).toBe(
      'https://example.com/ios',
    );
    const d = await createShort(alice, {
      url: 'https://example.com/default',
      rules: [rule('https://later-bad.example/x', ['os', 'android'])],
    });
    expect(await to(`/s/${d.code}`, { 'user-agent': UA.android })).toBe(
      'https://later-bad.example/x',
    );
    const admin = await loginAs(t, 'admin');
    const entry = { kind: 'host', value: 'later-bad.example', reason: null };
    expect((await admin.put(`/api/admin/entity/blacklist/${randomUUID()}`, entry)).status).toBe(
      201,
    );
    expect(await to(`/s/${d.code}`, { 'user-agent': UA.android })).toBe(
      `/s/${d.code}/potentially-dangerous`,
    );
    expect(await to(`/s/${d.code}?accept_danger=true`, { 'user-agent': UA.android })).toBe(
      'https://later-bad.example/x',
    );
    // The short's url is not blacklisted: other visitors go there.
    expect(await to(`/s/${d.code}`)).toBe('https://example.com/default');
  });

  it('a limited short claims its use before a rule target; used up, it is not found', async () => {
    const s = await createShort(alice, { url: 'https://example.com/default', rules, maxUses: 2 });
    expect(await to(`/s/${s.code}`, { 'user-agent': UA.iphone })).toBe('https://example.com/ios');
    expect(await to(`/s/${s.code}`)).toBe('https://example.com/default');
    expect(await to(`/s/${s.code}`, { 'user-agent': UA.iphone })).toBe(
      `/s/${s.code}/not-found?reason=used-up`,
    );
  });

  it('an edit of the rules applies at the next follow (after a cached one)', async () => {
    const s = await createShort(alice, { url: 'https://example.com/default' });
    expect(await to(`/s/${s.code}`, { 'user-agent': UA.iphone })).toBe(
      'https://example.com/default',
    );
    await alice.patch(`/api/code/${s.id}`, {
      rules: [rule('https://example.com/m', ['device', 'mobile'])],
    });
    expect(await to(`/s/${s.code}`, { 'user-agent': UA.iphone })).toBe('https://example.com/m');
    await alice.patch(`/api/code/${s.id}`, { rules: null });
    expect(await to(`/s/${s.code}`, { 'user-agent': UA.iphone })).toBe(
      'https://example.com/default',
    );
  });

  it('expired and used-up shorts go to their expiredUrl; without one, to the not-found page', async () => {
    const over = 'https://example.com/offer-ended';
    const s = await createShort(alice, {
      url: 'https://example.com/default',
      expiredUrl: over,
      maxUses: 1,
    });
    expect(await to(`/s/${s.code}`)).toBe('https://example.com/default');
    const gone = await follow(`/s/${s.code}`);
    expect(gone).toMatchObject({ status: 302, location: over });
    expect(gone.res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await to(`/s/${s.code}`, { 'user-agent': UA.bot })).toBe(over); // bots too
    expect(await to(`/api/code/${s.code}`)).toBe(over);

    const e = await createShort(alice, { url: 'https://example.com/default', expiredUrl: over });
    expect(await to(`/s/${e.code}`)).toBe('https://example.com/default'); // now cached
    // Past its expiry (the API refuses a past date): written to the table, dropped from the cache.
    await t.ds
      .getRepository(ShortEntity)
      .update({ id: e.id }, { expireAt: new Date(Date.now() - 1000) });
    t.app.get(FollowService).invalidate(e.code);
    expect(await to(`/s/${e.code}`)).toBe(over);
    // Visitors learn nothing more through the info call: still 404.
    await expectProblem(await t.fetch(`/api/code/${e.code}?redirect=false`), 404);
    // Cleared: the not-found page again.
    await alice.patch(`/api/code/${e.id}`, { expiredUrl: null });
    expect(await to(`/s/${e.code}`)).toBe(`/s/${e.code}/not-found?reason=expired`);
  });

  it('statistics count where visits went: default or the rule number', async () => {
    const s = await createShort(alice, { url: 'https://example.com/default', rules });
    await to(`/s/${s.code}`, { 'user-agent': UA.iphone });
    await to(`/s/${s.code}`, { 'user-agent': UA.iphone });
    await to(`/s/${s.code}`, { 'user-agent': UA.android });
    await to(`/s/${s.code}`);
    await to(`/s/${s.code}`, { 'user-agent': UA.bot }); // a bot hit: no target counted
    await t.app.get(StatisticsRecorder).flush();
    const stats = (await (await alice.fetch(`/api/code/${s.id}/statistics`)).json()) as {
      total: { visits: number; bots: number };
      targets: Array<{ name: string; count: number }>;
    };
    expect(stats.total).toMatchObject({ visits: 4, bots: 1 });
    expect(stats.targets).toEqual([
      { name: '1', count: 2 },
      { name: '2', count: 1 },
      { name: 'default', count: 1 },
    ]);
  });

  it('on an own domain: the expiredUrl before the domain’s not-found redirect; rules apply', async () => {
    const admin = await loginAs(t, 'admin');
    const added = await admin.post('/api/domains', {
      host: 'rules.example.com',
      shared: true,
      notFoundRedirect: 'https://example.com/domain-not-found',
    });
    expect(added.status).toBe(201);
    await waitFor(async () => (await getOnHost(t.url, 'rules.example.com', '/')).status === 302, {
      message: 'the domain is followable',
    });
    const over = 'https://example.com/over';
    const res = await alice.post('/api/code', {
      url: 'https://example.com/default',
      domain: 'rules.example.com',
      code: 'brand',
      rules: [rule('https://example.com/q', ['query', 'x=1'])],
      expiredUrl: over,
      maxUses: 1,
    });
    expect(res.status).toBe(201);
    expect((await getOnHost(t.url, 'rules.example.com', '/brand?x=1')).location).toBe(
      'https://example.com/q',
    );
    expect((await getOnHost(t.url, 'rules.example.com', '/brand')).location).toBe(over);
    expect((await getOnHost(t.url, 'rules.example.com', '/unknown-code')).location).toBe(
      'https://example.com/domain-not-found',
    );
  });

  it('the password form’s POST takes the rules too (303)', async () => {
    const s = await createShort(alice, {
      url: 'https://example.com/default',
      rules,
      password: 'pw',
    });
    const res = await t.fetch(`/s/${s.code}`, {
      method: 'POST',
      headers: {
        'user-agent': UA.iphone,
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'same-origin',
      },
      body: 'password=pw',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('https://example.com/ios');
  });
});
