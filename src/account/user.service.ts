import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { Repository } from 'typeorm';
import type { Actor } from '../common/actor';
import { BadRequestError } from '../common/errors';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { isUniqueViolation } from '../database/errors';
import type { UserDto } from './dto/user.dto';
import { ROLE_ADMIN, ROLE_USER, ROLES, UserEntity } from './user.entity';

/** What a login provider tells us about the person. */
export interface LoginProfile {
  provider: string;
  providerUserId: string;
  username: string;
  email?: string | null;
  imageUrl?: string | null;
}

export function parseRoles(roles: string): string[] {
  return roles
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
}

function clip(v: string | null | undefined, max: number): string | null {
  if (v === undefined || v === null || v === '') return null;
  return v.length > max ? v.slice(0, max) : v;
}

@Injectable()
export class UserService {
  constructor(
    @InjectRepository(UserEntity) private readonly repo: Repository<UserEntity>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Whether `provider:username` is listed in ADMIN_USERS (case-insensitive). */
  isConfiguredAdmin(provider: string, username: string): boolean {
    return this.config.adminUsers.includes(`${provider}:${username}`.toLowerCase());
  }

  /**
   * The user for a successful login: created at the first login, found by (provider,
   * provider user id) afterwards (profile fields refreshed). ADMIN_USERS adds ROLE_ADMIN.
   */
  async login(p: LoginProfile): Promise<UserEntity> {
    const username = clip(p.username, 100) ?? p.providerUserId.slice(0, 100);
    const fields = {
      username,
      email: clip(p.email, 255),
      imageUrl: clip(p.imageUrl, 1024),
    };
    const admin = this.isConfiguredAdmin(p.provider, username);
    for (let attempt = 0; attempt < 3; attempt++) {
      const existing = await this.repo.findOne({
        where: { provider: p.provider, providerUserId: p.providerUserId },
      });
      if (existing) {
        const roles = parseRoles(existing.roles);
        if (!roles.includes(ROLE_USER)) roles.unshift(ROLE_USER);
        if (admin && !roles.includes(ROLE_ADMIN)) roles.push(ROLE_ADMIN);
        const patch = { ...fields, roles: roles.join(',') };
        await this.repo.update({ id: existing.id }, patch);
        return Object.assign(existing, patch);
      }
      const user = this.repo.create({
        id: randomUUID(),
        ...fields,
        activated: true,
        provider: p.provider,
        providerUserId: p.providerUserId,
        roles: admin ? `${ROLE_USER},${ROLE_ADMIN}` : ROLE_USER,
        createdDate: new Date(),
      });
      try {
        await this.repo.insert(user);
        return user;
      } catch (err) {
        // Two first logins at once: the other one created the user; read it.
        if (!isUniqueViolation(err)) throw err;
      }
    }
    throw new Error('Could not create or find the user');
  }

  /** How many accounts exist (the start page's live figures). */
  count(): Promise<number> {
    return this.repo.count();
  }

  async findById(id: string): Promise<UserEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  /** The Actor for a user id, or null when the user no longer exists. */
  async actor(id: string): Promise<Actor | null> {
    const u = await this.repo.findOne({
      where: { id },
      select: { id: true, username: true, roles: true, activated: true },
    });
    return u ? toActor(u) : null;
  }

  /**
   * An admin's change of an account: activation and roles (every account keeps ROLE_USER; roles are
   * stored in the order of ROLES). Admins cannot lock themselves out.
   */
  async adminUpdate(
    id: string,
    patch: { activated?: boolean; roles?: readonly string[] },
    actor: Actor,
  ): Promise<void> {
    const set: Partial<UserEntity> = {};
    if (patch.activated !== undefined) {
      if (id === actor.id && !patch.activated)
        throw new BadRequestError('You cannot deactivate your own account', 'self_change_refused');
      set.activated = patch.activated;
    }
    if (patch.roles !== undefined) {
      const roles = new Set([ROLE_USER, ...patch.roles]);
      if (id === actor.id && !roles.has(ROLE_ADMIN))
        throw new BadRequestError('You cannot remove your own admin role', 'self_change_refused');
      set.roles = ROLES.filter((r) => roles.has(r)).join(',');
    }
    if (Object.keys(set).length) await this.repo.update({ id }, set);
  }

  /**
   * The users who logged in as `provider:username` (the username case-insensitive, as ADMIN_USERS
   * reads it): usually one; several when a provider's name was reused by another account.
   */
  findByLogin(provider: string, username: string): Promise<UserEntity[]> {
    return this.repo
      .createQueryBuilder('u')
      .where('u.provider = :provider', { provider: provider.toLowerCase() })
      .andWhere('LOWER(u.username) = :username', { username: username.toLowerCase() })
      .orderBy('u.created_date', 'ASC')
      .getMany();
  }

  /**
   * Gives (`on`) or takes ROLE_ADMIN (the operator's CLI; ADMIN_USERS gives it again at the next
   * login). Answers whether the roles changed. The request pipeline reads roles per request, so the
   * change holds from the user's next request on, on every instance.
   */
  async setAdmin(id: string, on: boolean): Promise<boolean> {
    const user = await this.repo.findOne({ where: { id }, select: { id: true, roles: true } });
    if (!user) return false;
    const roles = parseRoles(user.roles);
    if (roles.includes(ROLE_ADMIN) === on) return false;
    // Every other role stays as it is; every account keeps ROLE_USER.
    const next = on ? [...roles, ROLE_ADMIN] : roles.filter((r) => r !== ROLE_ADMIN);
    if (!next.includes(ROLE_USER)) next.unshift(ROLE_USER);
    await this.repo.update({ id }, { roles: next.join(',') });
    return true;
  }

  /** Checks that an admin may delete this account (not their own). */
  assertRemovable(id: string, actor: Actor): void {
    if (id === actor.id)
      throw new BadRequestError('You cannot delete your own account', 'self_change_refused');
  }

  /** Deletes an account; its sessions end at their next request, its key and reports go with it. */
  async remove(id: string): Promise<void> {
    await this.repo.delete({ id });
  }

  toDto(u: UserEntity): UserDto {
    return {
      id: u.id,
      username: u.username,
      email: u.email,
      imageUrl: u.imageUrl,
      activated: u.activated,
      createdDate: u.createdDate.toISOString(),
      authorities: parseRoles(u.roles),
    };
  }
}

export function toActor(u: Pick<UserEntity, 'id' | 'username' | 'roles' | 'activated'>): Actor {
  return { id: u.id, username: u.username, roles: parseRoles(u.roles), activated: u.activated };
}
