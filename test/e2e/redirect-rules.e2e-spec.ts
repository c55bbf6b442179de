import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ShortDto } from '../../src/shorts/dto/short.dto';
import { useTestApp } from '../support/app';
import { loginAs, type LoggedIn, useLogin } from '../support/login';
import { expectProblem, type ProblemBody } from '../support/problem';
import { createShort } from '../support/shorts';

/** A refusal's problem with its `fieldErrorKeys`. */
const refusal = async (res: Response) =>
  (await expectProblem(res, 400)) as ProblemBody & { fieldErrorKeys?: Record<string, string> };

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
    const cases: Array<[unknown, string]> = [
      ['not a list', 'rules_invalid'],
      [[{ url: 'https://example.com', conditions: [] }], 'rules_invalid'],
      [
        Array.from({ length: 11 }, () => rule('https://example.com', ['os', 'ios'])),
        'rules_too_many',
      ],
      [[rule('https://example.com', ['planet', 'mars'])], 'rule_condition_invalid'],
      [[rule('https://example.com', ['country', 'Deutschland'])], 'rule_condition_invalid'],
      [[rule('javascript:alert(1)', ['os', 'ios'])], 'rule_url_invalid'],
      [[rule(`${t.url}/s/${s.code}`, ['os', 'ios'])], 'rule_url_invalid'],
    ];
    for (const [rules, key] of cases) {
      const res = await alice.patch(`/api/code/${s.id}`, { rules });
      const body = await refusal(res);
      expect(body.fieldErrorKeys, JSON.stringify(rules).slice(0, 80)).toEqual({ rules: key });
      expect(body.fieldErrors).toHaveProperty('rules');
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
