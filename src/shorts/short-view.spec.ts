import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import type { BlacklistService } from '../blacklist/blacklist.service';
import type { Actor } from '../common/actor';
import type { CacheBus } from '../redis/cache-bus';
import { type DomainError, ValidationFailedError } from '../common/errors';
import type { AppConfig } from '../config/config';
import type { DomainRegistry } from '../domains/domain-registry';
import type { RateLimitService } from '../limits/rate-limit.service';
import type { MetricsService } from '../metrics/metrics.service';
import { fieldsWith, SHORT_FIELDS } from '../shared/short-fields';
import { SHORT_VIEW, ShortDto } from './dto/short.dto';
import type { PasswordLimiter } from './password-limiter';
import { ShortEntity } from './short.entity';
import type { ShortRepository } from './short.repository';
import { ShortService } from './short.service';
import { UNCHECKED } from './short-health';

const admin: Actor = { id: 'a1', username: 'admin', roles: ['ROLE_ADMIN'], activated: true };

/** A stored short of another user, with every field set. */
const stored = (): ShortEntity =>
  Object.assign(new ShortEntity(), {
    id: 'id-1',
    code: 'abc',
    domain: '',
    name: 'Name',
    url: 'https://example.com/target',
    passwordHash: null,
    maxUses: 5,
    uses: 2,
    createdAt: new Date('2026-01-01T00:00:00.000Z'),
    expireAt: null,
    ownerId: 'u1',
    owner: { id: 'u1', username: 'alice' },
    dangerous: false,
    dangerReason: null,
    expiredUrl: 'https://example.com/ended',
    rules: null,
    ...UNCHECKED,
  });

function service(blacklisted: readonly string[] = []) {
  const updates: unknown[] = [];
  const repo = {
    findByIdWithOwner: async () => stored(),
    update: async (_id: string, changes: unknown) => {
      updates.push(changes);
    },
  };
  const shorts = new ShortService(
    repo as unknown as ShortRepository,
    { baseUrl: 'https://short.example', port: 8080 } as AppConfig,
    { isBlacklisted: (url: string) => blacklisted.includes(url) } as unknown as BlacklistService,
    { publish: () => {} } as unknown as CacheBus,
    {} as PasswordLimiter,
    {} as MetricsService,
    {} as RateLimitService,
    { get: () => undefined } as unknown as DomainRegistry,
  );
  return { shorts, updates };
}

async function refusal(p: Promise<unknown>): Promise<DomainError> {
  return p.then(
    () => {
      throw new Error('not refused');
    },
    (err: DomainError) => err,
  );
}

describe('a short as the API shows it (ShortDto from the field table)', () => {
  it('has every shown field once, among its own properties', () => {
    for (const name of fieldsWith('shown')) {
      expect(
        SHORT_VIEW.filter((p) => p === name),
        name,
      ).toHaveLength(1);
    }
    expect(SHORT_VIEW).not.toContain('password');
  });

  it('documents the properties in the order of the answer', () => {
    const documented = Reflect.getMetadata(
      'swagger/apiModelPropertiesArray',
      ShortDto.prototype,
    ) as string[];
    expect(documented.map((p) => p.replace(/^:/, ''))).toEqual(SHORT_VIEW);
  });

  it('answers the owner’s view in the order answers have always had', () => {
    const dto = service().shorts.toDto(stored(), true, { visits: 7 });
    const always =
      'id code domain shortUrl name url hasPassword maxUses createdAt expireAt owner dangers';
    const owners = 'uses visits expiredUrl rules health';
    expect(Object.keys(dto)).toEqual(`${always} ${owners}`.split(' '));
    expect(Object.keys(dto)).toEqual(SHORT_VIEW);
    expect(dto).toMatchObject({
      domain: null, // this service's host ('' stored)
      url: 'https://example.com/target',
      expireAt: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      expiredUrl: 'https://example.com/ended',
      rules: [], // none stored as null
      uses: 2,
      visits: 7,
    });
  });

  it('shows strangers neither the owner’s fields nor a withheld target', () => {
    const dto = service().shorts.toDto(stored(), false);
    expect(dto.url).toBeNull();
    for (const name of [...fieldsWith('shown'), 'uses', 'visits', 'health'] as const) {
      const shown = (SHORT_FIELDS as Record<string, { shown?: { to: string } }>)[name]?.shown;
      expect(name in dto, name).toBe(shown !== undefined && shown.to !== 'owner');
    }
  });

  it('is dangerous when any url-typed field or a rule’s url is blacklisted', () => {
    expect(service().shorts.toDto(stored(), true).dangers).toBe(false);
    expect(service(['https://example.com/ended']).shorts.toDto(stored(), true).dangers).toBe(true);
    const ruled = { ...stored(), rules: [{ conditions: [], url: 'https://bad.example/' }] };
    const dto = service(['https://bad.example/']).shorts.toDto(ruled as ShortEntity, true);
    expect(dto.dangers).toBe(true);
  });
});

describe('ShortService.adminEdit', () => {
  it('refuses with the field errors and keys of the owner’s edit, and writes nothing', async () => {
    const { shorts, updates } = service(['https://blocked.example/']);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ expiredUrl: 'javascript:alert(1)' }, 'expiredUrl', 'url_invalid'],
      [{ expiredUrl: 'https://short.example/s/abc' }, 'expiredUrl', 'url_self'],
      [{ expiredUrl: 5 }, 'expiredUrl', 'url_invalid'],
      [{ maxUses: 'many' }, 'maxUses', 'uses_invalid'],
      [{ name: 'n'.repeat(101) }, 'name', 'name_too_long'],
      [{ rules: 'none' }, 'rules', 'rules_invalid'],
      [
        {
          rules: [
            { conditions: [{ type: 'device', value: 'toaster' }], url: 'https://a.example/' },
          ],
        },
        'rules',
        'rule_condition_invalid',
      ],
      [
        {
          rules: [
            { conditions: [{ type: 'device', value: 'mobile' }], url: 'https://blocked.example/' },
          ],
        },
        'rules',
        'rule_url_blacklisted',
      ],
    ];
    for (const [body, field, key] of cases) {
      const err = await refusal(shorts.adminEdit('id-1', body, admin));
      expect(err, JSON.stringify(body)).toBeInstanceOf(ValidationFailedError);
      expect((err as ValidationFailedError).fieldErrorKeys[field], JSON.stringify(body)).toBe(key);
    }
    const past = await refusal(
      shorts.adminEdit('id-1', { expireAt: '2001-01-01T00:00:00Z' }, admin),
    );
    expect(past.errorKey).toBe('expire_past');
    expect(updates).toEqual([]);
  });

  it('writes a valid edit of another user’s short as the owner’s edit would', async () => {
    const { shorts, updates } = service();
    await shorts.adminEdit('id-1', { name: '  Renamed  ', expiredUrl: null }, admin);
    expect(updates).toEqual([{ name: 'Renamed', expiredUrl: null }]);
  });
});
