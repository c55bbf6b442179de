import { describe, expect, it } from 'vitest';
import { shortServices, storedShort } from '../../test/support/short-services';
import type { Actor } from '../common/actor';
import type { DomainError } from '../common/errors';
import type { ShortEntity } from './short.entity';

describe('ShortAccessService: who may manage a short', () => {
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
    delete: async (s: { id: string }) => void deleted.push(s.id),
  };
  const { access, edit } = shortServices({ repo });
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
    expect(await keyOf(access.findOwned(id, actor))).toBe(key);
    expect(await keyOf(edit.delete(id, actor))).toBe(key);
  });

  it('deleted only what was allowed', () => {
    expect(deleted).toEqual(['mine', 'mine', 'anon']);
  });
});

describe('ShortAccessService.mayReveal: the manager’s right decides first', () => {
  const { access } = shortServices();
  const as = (id: string, roles: string[]): Actor => ({ id, username: id, activated: true, roles });
  // A limited short (maxUses) is never revealed to others: only the manager's right reveals it.
  it.each([
    ['its owner', as('u1', ['ROLE_USER']), true],
    ['an admin', as('root', ['ROLE_USER', 'ROLE_ADMIN']), true],
    ['another user', as('bob', ['ROLE_USER']), false],
    ['nobody', null, false],
  ] as const)('%s', async (_who, actor, revealed) => {
    expect(await access.mayReveal(storedShort(), actor, undefined, 'client')).toBe(revealed);
  });
});
