import { describe, expect, it, vi } from 'vitest';
import type { BlacklistService } from '../blacklist/blacklist.service';
import type { Actor } from '../common/actor';
import { type DomainError, ValidationFailedError } from '../common/errors';
import type { AppConfig } from '../config/config';
import type { DomainRegistry } from '../domains/domain-registry';
import type { RateLimitService } from '../limits/rate-limit.service';
import type { MetricsService } from '../metrics/metrics.service';
import type { CacheBus } from '../redis/cache-bus';
import type { PasswordLimiter } from './password-limiter';
import type { ShortEntity } from './short.entity';
import type { ShortRepository } from './short.repository';
import { MAX_NAME_LENGTH } from '../shared/limits';
import { normalizeName } from './field-checks';
import { ShortService } from './short.service';

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

describe('ShortService.createMany', () => {
  const actor = { id: 'u1', username: 'u', authorities: ['ROLE_USER'] } as unknown as Actor;
  const unique = () =>
    Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT_UNIQUE' });

  /** A service over an in-memory table whose multi-row INSERT meets `racing` (taken meanwhile). */
  function serviceWith(existing: string[], racing: string[]) {
    const table = new Map<string, ShortEntity>(
      existing.map((c) => [c, { code: c } as ShortEntity]),
    );
    const repo = {
      create: (fields: ShortEntity) => ({ ...fields }),
      existingCodes: async (_domain: string, codes: readonly string[]) =>
        new Set(codes.filter((c) => table.has(c))),
      insertMany: async (shorts: readonly ShortEntity[]) => {
        for (const c of racing) table.set(c, { code: c } as ShortEntity);
        if (shorts.some((s) => table.has(s.code))) throw unique();
        for (const s of shorts) table.set(s.code, s);
      },
      insert: async (s: ShortEntity) => {
        if (table.has(s.code)) throw unique();
        table.set(s.code, s);
      },
    };
    const invalidated: string[] = [];
    const inc = vi.fn();
    const service = new ShortService(
      repo as unknown as ShortRepository,
      { baseUrl: 'https://short.example', port: 8080 } as AppConfig,
      { isBlacklisted: () => false } as unknown as BlacklistService,
      {
        publish: (_channel: string, code: string) => invalidated.push(code),
      } as unknown as CacheBus,
      {} as PasswordLimiter,
      { creates: { inc } } as unknown as MetricsService,
      {} as RateLimitService,
      { get: () => undefined } as unknown as DomainRegistry,
    );
    return { service, table, invalidated, inc };
  }

  it('reports taken and repeated codes and writes the rest in one go', async () => {
    const { service, table, invalidated, inc } = serviceWith(['taken'], []);
    const results = await service.createMany(
      [
        { url: 'https://a.example/1', code: 'one' },
        { url: 'https://a.example/2', code: 'taken' },
        { url: 'https://a.example/3', code: 'one' },
        { url: 'javascript:alert(1)', code: 'bad' },
        { url: 'https://a.example/5' },
      ],
      actor,
    );
    // The key an import reports: a field error's per field, any other error's own.
    const keyOf = (err: DomainError) =>
      err instanceof ValidationFailedError ? Object.values(err.fieldErrorKeys)[0] : err.errorKey;
    expect(results.map((r) => ('code' in r ? r.code : keyOf(r.error)))).toEqual([
      'one',
      'code_exists',
      'code_exists',
      'url_invalid',
      expect.stringMatching(/^[A-Za-z0-9]{7}$/),
    ]);
    expect(table.get('one')?.url).toBe('https://a.example/1');
    expect(table.size).toBe(3);
    expect(invalidated).toHaveLength(2);
    expect(inc).toHaveBeenCalledWith({ kind: 'short' }, 2);
  });

  it('falls back to one row at a time when a code was taken meanwhile: the others are still created', async () => {
    const { service, table, invalidated } = serviceWith([], ['raced']);
    const results = await service.createMany(
      [
        { url: 'https://a.example/1', code: 'first' },
        { url: 'https://a.example/2', code: 'raced' },
        { url: 'https://a.example/3' },
      ],
      actor,
    );
    expect('code' in results[0] && results[0].code).toBe('first');
    expect('error' in results[1] && results[1].error).toMatchObject({
      message: 'Code already exists',
      errorKey: 'code_exists',
    });
    expect('code' in results[2]).toBe(true);
    expect(table.get('first')?.url).toBe('https://a.example/1');
    expect(table.get('raced')?.url).toBeUndefined(); // the other writer's short stays
    expect(invalidated).toEqual(['first', (results[2] as { code: string }).code]);
  });
});

describe('ShortService: who may manage a short', () => {
  const user = (id: string, admin = false) =>
    ({
      id,
      username: id,
      activated: true,
      roles: admin ? ['ROLE_USER', 'ROLE_ADMIN'] : ['ROLE_USER'],
    }) satisfies Actor;
  const shorts: Record<string, ShortEntity> = {
    mine: { id: 'mine', code: 'mine', ownerId: 'alice', url: 'https://a.example/' } as ShortEntity,
    anon: { id: 'anon', code: 'anon', ownerId: null, url: 'https://a.example/' } as ShortEntity,
  };
  const deleted: string[] = [];
  const repo = {
    findByIdWithOwner: async (id: string) => shorts[id] ?? null,
    findIdentity: async (id: string) => shorts[id] ?? null,
    delete: async (id: string) => void deleted.push(id),
  };
  const service = new ShortService(
    repo as unknown as ShortRepository,
    { baseUrl: 'https://short.example', port: 8080 } as AppConfig,
    { isBlacklisted: () => false } as unknown as BlacklistService,
    { publish: () => undefined } as unknown as CacheBus,
    {} as PasswordLimiter,
    {} as MetricsService,
    {} as RateLimitService,
    { get: () => undefined } as unknown as DomainRegistry,
  );
  const keyOf = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (err: DomainError) => err.errorKey,
    );

  it.each([
    ['its owner', user('alice'), 'mine', 'ok'],
    ['another user', user('bob'), 'mine', 'not_owner'],
    ['an admin', user('root', true), 'mine', 'ok'],
    ['a user, an anonymous short', user('alice'), 'anon', 'not_owner'],
    ['an admin, an anonymous short', user('root', true), 'anon', 'ok'],
    ['nobody', null, 'mine', 'unauthorized'],
    ['anybody, an unknown id', user('alice'), 'nope', 'entity_not_exists'],
  ] as const)('%s', async (_who, actor, id, key) => {
    expect(await keyOf(service.findOwned(id, actor))).toBe(key);
    expect(await keyOf(service.delete(id, actor))).toBe(key);
  });

  it('deleted only what was allowed', () => {
    expect(deleted).toEqual(['mine', 'mine', 'anon']);
  });
});

describe('ShortService: the hosts it serves and dangers', () => {
  const actor = { id: 'u1', username: 'u', authorities: ['ROLE_USER'] } as unknown as Actor;
  const domains = new Map([
    ['own.example', { verified: true, enabled: true }],
    ['pending.example', { verified: false, enabled: true }],
    ['off.example', { verified: true, enabled: false }],
  ]);
  const service = new ShortService(
    {
      create: (fields: ShortEntity) => ({ ...fields }),
      insertMany: async () => undefined,
    } as never,
    { baseUrl: 'https://short.example', port: 8080 } as AppConfig,
    { isBlacklisted: (url: string) => url.includes('bad.example') } as unknown as BlacklistService,
    { publish: () => undefined } as unknown as CacheBus,
    {} as PasswordLimiter,
    { creates: { inc: () => undefined } } as unknown as MetricsService,
    {} as RateLimitService,
    { get: (host: string) => domains.get(host) } as unknown as DomainRegistry,
  );

  it('refuses targets on verified, enabled domains of the registry with url_self', async () => {
    const results = await service.createMany(
      [
        { url: 'https://own.example/x' },
        { url: 'https://example.com/', expiredUrl: 'http://OWN.example.:8080/' },
        { url: 'https://pending.example/x' },
        { url: 'https://off.example/x' },
      ],
      actor,
    );
    const keys = results.map((r) =>
      'error' in r ? (r.error as ValidationFailedError).fieldErrorKeys : 'created',
    );
    expect(keys).toEqual([{ url: 'url_self' }, { expiredUrl: 'url_self' }, 'created', 'created']);
  });

  it('dangers: flagged, or a blacklisted url, rule url or expiredUrl', () => {
    const short = (over: Partial<ShortEntity>) =>
      ({
        id: 'id',
        code: 'c',
        domain: '',
        name: null,
        url: 'https://example.com/',
        passwordHash: null,
        maxUses: null,
        createdAt: new Date(0),
        expireAt: null,
        owner: null,
        dangerous: false,
        expiredUrl: null,
        rules: null,
        ...over,
      }) as unknown as ShortEntity;
    const dangers = (over: Partial<ShortEntity>) => service.toDto(short(over), true).dangers;
    expect(dangers({})).toBe(false);
    expect(dangers({ dangerous: true })).toBe(true);
    expect(dangers({ url: 'https://bad.example/' })).toBe(true);
    expect(dangers({ expiredUrl: 'https://bad.example/over' })).toBe(true);
    expect(dangers({ expiredUrl: 'https://fine.example/over' })).toBe(false);
    const rule = (url: string) => ({ url, conditions: [{ type: 'os' as const, value: 'ios' }] });
    expect(dangers({ rules: [rule('https://fine.example/'), rule('https://bad.example/')] })).toBe(
      true,
    );
    expect(dangers({ rules: [rule('https://fine.example/')] })).toBe(false);
  });
});
