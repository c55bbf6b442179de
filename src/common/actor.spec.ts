import { describe, expect, it } from 'vitest';
import { type Actor, isOwnerOrAdmin } from './actor';

const user = (id: string, roles = ['ROLE_USER'], activated = true): Actor => ({
  id,
  username: id,
  roles,
  activated,
});

describe('isOwnerOrAdmin', () => {
  it('the owner and admins; what nobody owns only admins; nobody without a caller', () => {
    const alice = user('alice');
    const admin = user('admin', ['ROLE_USER', 'ROLE_ADMIN']);
    expect(isOwnerOrAdmin(alice, 'alice')).toBe(true);
    expect(isOwnerOrAdmin(alice, 'bob')).toBe(false);
    expect(isOwnerOrAdmin(alice, null)).toBe(false);
    expect(isOwnerOrAdmin(admin, 'bob')).toBe(true);
    expect(isOwnerOrAdmin(admin, null)).toBe(true);
    expect(isOwnerOrAdmin(null, 'alice')).toBe(false);
    expect(isOwnerOrAdmin(undefined, null)).toBe(false);
  });

  it('an admin who is not activated has no admin rights, an owner keeps ownership', () => {
    expect(isOwnerOrAdmin(user('admin', ['ROLE_ADMIN'], false), 'bob')).toBe(false);
    expect(isOwnerOrAdmin(user('alice', ['ROLE_USER'], false), 'alice')).toBe(true);
  });
});
