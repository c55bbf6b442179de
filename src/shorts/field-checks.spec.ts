import { describe, expect, it } from 'vitest';
import type { BlacklistService } from '../blacklist/blacklist.service';
import { type CheckContext, checkShortFields, normalizeName } from './field-checks';
import { MAX_NAME_LENGTH } from '../shared/limits';
import { ServiceNames } from '../domains/target-url';

const NOW = Date.UTC(2026, 10, 25, 12);
const ctx = (over: Partial<CheckContext> = {}): CheckContext => ({
  mode: 'create',
  loggedIn: true,
  names: new ServiceNames('https://sho.rt', undefined, (host) => host === 'go.example.com'),
  blacklist: { isBlacklisted: (url: string) => url.includes('evil.example') } as BlacklistService,
  now: NOW,
  domainAccess: (host) =>
    host === 'go.example.com' ? 'ok' : host === 'theirs.example.com' ? 'forbidden' : 'unknown',
  teamAccess: (id) => id === 'team-mine',
  ...over,
});
const future = new Date(NOW + 86_400_000).toISOString();

describe('the checks of a short’s fields (from the field table)', () => {
  it('takes every field of a logged-in create and answers what to store', () => {
    expect(
      checkShortFields(
        {
          url: 'https://example.com/a',
          code: ' my-code ',
          name: '  Urlaub  ',
          expireAt: future,
          maxUses: 3,
          password: 'pw',
        },
        ctx(),
      ),
    ).toEqual({
      checked: {
        url: 'https://example.com/a',
        code: 'my-code',
        name: 'Urlaub',
        expireAt: new Date(future),
        maxUses: 3,
        password: 'pw',
      },
    });
  });

  it('normalises tags (trimmed, one spelling per key, the first) and stores them joined', () => {
    const check = (tags: unknown, over: Partial<CheckContext> = {}) =>
      checkShortFields({ url: 'https://example.com', tags: tags as string[] }, ctx(over));
    expect(check([' Herbst ', 'herbst', 'Sale'])).toEqual({
      checked: { url: 'https://example.com/', tags: 'Herbst,Sale' },
    });
    // None: nothing stored on create, cleared on edit.
    expect(check([])).toEqual({ checked: { url: 'https://example.com/', tags: null } });
    expect(check(null, { mode: 'edit' })).toEqual({
      checked: { url: 'https://example.com/', tags: null },
    });
    expect(check(['ok', 'a,b'])).toEqual({
      fieldErrors: { tags: expect.stringMatching(/^tag 2 must be 1 to 32 characters/) },
      fieldErrorKeys: { tags: 'tag_invalid' },
      fieldErrorPaths: { tags: ['tags', 1] },
    });
    expect(check(Array.from({ length: 11 }, (_, i) => `t${i}`))).toMatchObject({
      fieldErrorKeys: { tags: 'too_many_tags' },
    });
    expect(check('a,b')).toMatchObject({ fieldErrorKeys: { tags: 'tag_invalid' } });
    expect(check(['x'], { loggedIn: false })).toMatchObject({
      fieldErrorKeys: { tags: 'field_not_allowed' },
    });
  });

  it('anonymous callers set only the anonymous fields; the others are field errors with their key', () => {
    expect(
      checkShortFields(
        { url: 'https://example.com', name: 'x', maxUses: null },
        ctx({ loggedIn: false }),
      ),
    ).toEqual({
      fieldErrors: { name: 'Only available to logged-in users' },
      fieldErrorKeys: { name: 'field_not_allowed' },
    });
  });

  it.each([
    [{ url: 'javascript:alert(1)' }, 'url', 'url_invalid'],
    [{ url: 'https://sho.rt/s/abc' }, 'url', 'url_self'],
    [{ url: 'https://go.example.com/abc' }, 'url', 'url_self'],
    [{ expiredUrl: 'https://GO.example.com./over' }, 'expiredUrl', 'url_self'],
    [{ code: 'a b' }, 'code', 'code_invalid'],
    [{ code: 'API' }, 'code', 'code_reserved'],
    [{ name: 'x'.repeat(101) }, 'name', 'name_too_long'],
    [{ expireAt: 'soon' }, 'expireAt', 'expire_invalid'],
  ] as const)('%j is a field error of %s (%s)', (input, field, key) => {
    const outcome = checkShortFields(input, ctx());
    expect(outcome).toHaveProperty(['fieldErrorKeys', field], key);
  });

  it('the contract’s sentences: blacklisted, in the past, below the minimum — in that order of precedence', () => {
    const past = new Date(NOW - 1).toISOString();
    expect(checkShortFields({ url: 'https://evil.example/' }, ctx())).toEqual({
      problem: 'URL is blacklisted',
      key: 'url_blacklisted',
    });
    expect(checkShortFields({ expireAt: past }, ctx())).toMatchObject({ key: 'expire_past' });
    expect(checkShortFields({ maxUses: 0 }, ctx())).toEqual({
      problem: 'Uses must be greater than 0',
      key: 'uses_min',
    });
    expect(
      checkShortFields({ url: 'https://evil.example/', expireAt: past, maxUses: 0 }, ctx()),
    ).toMatchObject({ key: 'uses_min' });
    // Field errors come before any sentence.
    expect(checkShortFields({ url: 'https://evil.example/', code: '!' }, ctx())).toHaveProperty(
      'fieldErrorKeys',
      { code: 'code_invalid' },
    );
  });

  it('null: absent on create, clears a nullable field on edit, refused for url and code on edit', () => {
    expect(checkShortFields({ url: 'https://example.com', name: null, code: null }, ctx())).toEqual(
      {
        checked: { url: 'https://example.com/' },
      },
    );
    expect(
      checkShortFields({ name: null, maxUses: null, password: '' }, ctx({ mode: 'edit' })),
    ).toEqual({
      checked: { name: null, maxUses: null, password: null },
    });
    expect(checkShortFields({ url: null, code: null }, ctx({ mode: 'edit' }))).toEqual({
      fieldErrors: { url: 'url must be a string', code: 'code must be a string' },
      fieldErrorKeys: { url: 'url_invalid', code: 'code_invalid' },
    });
    // An empty custom code on create asks for a generated one; on edit it is invalid.
    expect(checkShortFields({ code: '  ' }, ctx())).toEqual({ checked: {} });
    expect(checkShortFields({ code: '' }, ctx({ mode: 'edit' }))).toHaveProperty(
      'fieldErrorKeys.code',
      'code_invalid',
    );
  });
});

describe('the checks of redirect rules and the expiry fallback', () => {
  const rule = (url: string, ...conditions: Array<[string, string]>) => ({
    url,
    conditions: conditions.map(([type, value]) => ({ type, value })),
  });

  it('stores checked rules: values normalised, urls as targets; [] and null as none', () => {
    expect(
      checkShortFields(
        {
          rules: [
            rule('https://example.com/app', ['device', 'Mobile'], ['os', 'iOS']),
            rule(' https://example.com/de ', ['language', 'de-AT'], ['country', 'at']),
            rule('https://example.com/q', ['query', 'utm_source=mail']),
          ] as never,
          expiredUrl: 'https://example.com/ended',
        },
        ctx({ mode: 'edit' }),
      ),
    ).toEqual({
      checked: {
        rules: [
          rule('https://example.com/app', ['device', 'mobile'], ['os', 'ios']),
          rule('https://example.com/de', ['language', 'de-AT'], ['country', 'AT']),
          rule('https://example.com/q', ['query', 'utm_source=mail']),
        ],
        expiredUrl: 'https://example.com/ended',
      },
    });
    expect(checkShortFields({ rules: [] }, ctx({ mode: 'edit' }))).toEqual({
      checked: { rules: null },
    });
    expect(checkShortFields({ rules: null, expiredUrl: null }, ctx({ mode: 'edit' }))).toEqual({
      checked: { rules: null, expiredUrl: null },
    });
  });

  it.each([
    ['not a list', { a: 1 }, 'rules_invalid', 'must be a list of rules'],
    ['a rule of the wrong shape', ['x'], 'rules_invalid', 'rule 1: must be an object'],
    [
      'an unknown property',
      [{ ...rule('https://e.com', ['os', 'ios']), x: 1 }],
      'rules_invalid',
      'rule 1',
    ],
    ['no conditions', [rule('https://e.com')], 'rules_invalid', 'rule 1: conditions'],
    [
      'eleven rules',
      Array.from({ length: 11 }, () => rule('https://e.com', ['os', 'ios'])),
      'rules_too_many',
      'at most 10 rules',
    ],
    [
      'six conditions',
      [
        rule(
          'https://e.com',
          ...Array.from({ length: 6 }, () => ['os', 'ios'] as [string, string]),
        ),
      ],
      'rules_too_many',
      'rule 1: at most 5 conditions',
    ],
    [
      'an unknown type',
      [rule('https://e.com', ['browser', 'firefox'])],
      'rule_condition_invalid',
      'rule 1, condition 1: type',
    ],
    [
      'an unknown device',
      [rule('https://e.com', ['device', 'watch'])],
      'rule_condition_invalid',
      'device must be one of',
    ],
    [
      'an unknown os',
      [rule('https://e.com', ['os', 'beos'])],
      'rule_condition_invalid',
      'os must be one of',
    ],
    [
      'a bad language',
      [rule('https://e.com', ['language', 'de_DE'])],
      'rule_condition_invalid',
      'language',
    ],
    [
      'a bad country',
      [rule('https://e.com', ['country', 'DEU'])],
      'rule_condition_invalid',
      'country',
    ],
    [
      'a query without a name',
      [rule('https://e.com', ['query', '=x'])],
      'rule_condition_invalid',
      'name=value',
    ],
    [
      'a value that is no text',
      [{ url: 'https://e.com', conditions: [{ type: 'os', value: 1 }] }],
      'rule_condition_invalid',
      'value must be a text',
    ],
    [
      'a javascript: url',
      [rule('https://e.com', ['os', 'ios']), rule('javascript:alert(1)', ['os', 'linux'])],
      'rule_url_invalid',
      'rule 2: url',
    ],
    [
      'a link back to us',
      [rule('https://sho.rt/s/abc', ['os', 'ios'])],
      'url_self',
      'rule 1: url must not point to this service',
    ],
    [
      'a link to a domain this service serves',
      [rule('https://e.com', ['os', 'ios']), rule('http://go.example.com:8080/x', ['os', 'linux'])],
      'url_self',
      'rule 2: url must not point to this service',
    ],
    [
      'a missing url',
      [{ conditions: [{ type: 'os', value: 'ios' }] }],
      'rule_url_invalid',
      'rule 1: url',
    ],
    [
      'a blacklisted url',
      [rule('https://evil.example/x', ['os', 'ios'])],
      'rule_url_blacklisted',
      'rule 1: url is blacklisted',
    ],
  ])('refuses %s as fieldErrors.rules with its key', (_what, rules, key, message) => {
    const outcome = checkShortFields({ rules: rules as never }, ctx());
    expect(outcome).toHaveProperty('fieldErrorKeys', { rules: key });
    expect((outcome as { fieldErrors: Record<string, string> }).fieldErrors.rules).toContain(
      message,
    );
  });

  it.each([
    ['not a list', { a: 1 }, undefined],
    [
      'eleven rules',
      Array.from({ length: 11 }, () => rule('https://e.com', ['os', 'ios'])),
      undefined,
    ],
    ['a rule of the wrong shape', [rule('https://e.com', ['os', 'ios']), 'x'], ['rules', 1]],
    ['no conditions', [rule('https://e.com')], ['rules', 0]],
    [
      'a bad second condition',
      [rule('https://e.com', ['os', 'ios'], ['country', 'DEU'])],
      ['rules', 0, 'conditions', 1],
    ],
    [
      'a bad url of the second rule',
      [rule('https://e.com', ['os', 'ios']), rule('javascript:alert(1)', ['os', 'linux'])],
      ['rules', 1, 'url'],
    ],
    ['a blacklisted url', [rule('https://evil.example/x', ['os', 'ios'])], ['rules', 0, 'url']],
  ])('says where %s is (fieldErrorPaths.rules)', (_what, rules, path) => {
    const outcome = checkShortFields({ rules: rules as never }, ctx());
    expect(outcome).toHaveProperty('fieldErrorKeys');
    expect((outcome as { fieldErrorPaths?: object }).fieldErrorPaths).toEqual(
      path === undefined ? undefined : { rules: path },
    );
  });

  it('anonymous callers set neither; the expiry fallback is checked as a target URL', () => {
    expect(
      checkShortFields(
        { url: 'https://example.com', rules: [], expiredUrl: 'https://example.com/x' },
        ctx({ loggedIn: false }),
      ),
    ).toHaveProperty('fieldErrorKeys', {
      rules: 'field_not_allowed',
      expiredUrl: 'field_not_allowed',
    });
    expect(checkShortFields({ expiredUrl: 'ftp://example.com' }, ctx())).toHaveProperty(
      'fieldErrorKeys',
      { expiredUrl: 'url_invalid' },
    );
    expect(checkShortFields({ expiredUrl: 'https://evil.example/' }, ctx())).toEqual({
      problem: 'URL is blacklisted',
      key: 'url_blacklisted',
    });
  });
});

describe('normalizeName', () => {
  it('trims, stores empty as null and keeps at most the column length', () => {
    expect(normalizeName('  Urlaub  ')).toBe('Urlaub');
    expect(normalizeName('   ')).toBeNull();
    expect(normalizeName('')).toBeNull();
    expect(normalizeName(null)).toBeNull();
    expect(normalizeName(undefined)).toBeNull();
    expect(normalizeName('x'.repeat(150))).toHaveLength(MAX_NAME_LENGTH);
  });
});
