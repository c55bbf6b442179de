import { describe, expect, it } from 'vitest';
import { shortServices, storedShort } from '../../test/support/short-services';
import type { Actor } from '../common/actor';
import { type DomainError, ValidationFailedError } from '../common/errors';

const admin: Actor = { id: 'a1', username: 'admin', roles: ['ROLE_ADMIN'], activated: true };

/** The edits of a stored short of another user; `updates` what they wrote. */
function service(blacklisted: readonly string[] = []) {
  const updates: unknown[] = [];
  const repo = {
    findByIdWithOwner: async () => storedShort(),
    update: async (_id: string, changes: unknown) => {
      updates.push(changes);
    },
  };
  const { edit } = shortServices({ repo, isBlacklisted: (url) => blacklisted.includes(url) });
  return { shorts: edit, updates };
}

async function refusal(p: Promise<unknown>): Promise<DomainError> {
  return p.then(
    () => {
      throw new Error('not refused');
    },
    (err: DomainError) => err,
  );
}

describe('ShortEditService.adminEdit', () => {
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
