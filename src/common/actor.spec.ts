import { describe, expect, it } from 'vitest';
import { type Actor, isAdmin } from './actor';

const user = (id: string, roles = ['ROLE_USER'], activated = true): Actor => ({
  id,
  username: id,
  roles,
  activated,
});

describe('isAdmin', () => {
  it('an activated ROLE_ADMIN; nobody else, and nobody without a caller', () => {
    expect(isAdmin(user('admin', ['ROLE_USER', 'ROLE_ADMIN']))).toBe(true);
    expect(isAdmin(user('alice'))).toBe(false);
    expect(isAdmin(null)).toBe(false);
    expect(isAdmin(undefined)).toBe(false);
  });

  it('an admin who is not activated, or who acts through a team key, has no admin rights', () => {
    expect(isAdmin(user('admin', ['ROLE_ADMIN'], false))).toBe(false);
    const key = { id: 'k', scopes: [], teamRole: 'owner' as const };
    expect(isAdmin({ ...user('admin', ['ROLE_ADMIN']), key: { ...key, teamId: 't' } })).toBe(false);
    expect(isAdmin({ ...user('admin', ['ROLE_ADMIN']), key: { ...key, teamId: null } })).toBe(true);
  });
});
