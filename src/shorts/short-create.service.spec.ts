import { describe, expect, it, vi } from 'vitest';
import { shortServices } from '../../test/support/short-services';
import type { Actor } from '../common/actor';
import { type DomainError, ValidationFailedError } from '../common/errors';
import type { ShortEntity } from './short.entity';

describe('ShortCreateService.createMany', () => {
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
    const { create: service } = shortServices({
      inserts: repo,
      publish: (_channel, code) => void invalidated.push(code),
      inc,
    });
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

describe('ShortCreateService: the hosts it serves', () => {
  const actor = { id: 'u1', username: 'u', authorities: ['ROLE_USER'] } as unknown as Actor;
  const domains = new Map([
    ['own.example', { verified: true, enabled: true }],
    ['pending.example', { verified: false, enabled: true }],
    ['off.example', { verified: true, enabled: false }],
  ]);
  const { create: service } = shortServices({
    inserts: {
      create: (fields: ShortEntity) => ({ ...fields }),
      insertMany: async () => undefined,
    },
    isBlacklisted: (url: string) => url.includes('bad.example'),
    domain: (host: string) => domains.get(host),
  });

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
});
