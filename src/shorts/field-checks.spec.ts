import { describe, expect, it } from 'vitest';
import type { BlacklistService } from '../blacklist/blacklist.service';
import { type CheckContext, checkShortFields } from './field-checks';
import { ServiceNames } from './target-url';

const NOW = Date.UTC(2026, 10, 25, 12);
const ctx = (over: Partial<CheckContext> = {}): CheckContext => ({
  mode: 'create',
  loggedIn: true,
  names: new ServiceNames('https://sho.rt'),
  blacklist: { isBlacklisted: (url: string) => url.includes('evil.example') } as BlacklistService,
  now: NOW,
  domainAccess: (host) =>
    host === 'go.example.com' ? 'ok' : host === 'theirs.example.com' ? 'forbidden' : 'unknown',
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
    [{ url: 'https://sho.rt/s/abc' }, 'url', 'url_invalid'],
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
