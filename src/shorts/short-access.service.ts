import { Injectable } from '@nestjs/common';
import { type Access, AccessPolicy } from '../access/access-policy';
import { activeActor, type Actor } from '../common/actor';
import {
  ForbiddenError,
  TooManyRequestsError,
  UnauthorizedError,
  shortNotFound,
} from '../common/errors';
import { DomainRegistry } from '../domains/domain-registry';
import { requestHost } from '../domains/domain-host';
import { PasswordLimiter } from './password-limiter';
import type { ShortEntity } from './short.entity';
import { ShortRepository } from './short.repository';

/** Whether visitors may see a short: not expired, not exhausted. */
function isLive(s: ShortEntity, now: number): boolean {
  if (s.expireAt && s.expireAt.getTime() <= now) return false;
  if (s.maxUses !== null && s.uses >= s.maxUses) return false;
  return true;
}

/**
 * Who may do what with a short: reading and writing it as its owner, a member of its team or an
 * admin (`may`, which asks the AccessPolicy, the one place that decides), the shorts a caller may
 * manage, the shorts visitors may see and on which domain a request asks, and whether a short's
 * target may be shown (mayReveal).
 */
@Injectable()
export class ShortAccessService {
  constructor(
    private readonly shorts: ShortRepository,
    private readonly limiter: PasswordLimiter,
    private readonly domains: DomainRegistry,
    private readonly policy: AccessPolicy,
  ) {}

  /**
   * Whether `actor` may read (see its uses, visits, reports, target; export it) or write (change,
   * move, delete) the short `s`: the AccessPolicy's answer (its owner in his own space, its team's
   * members by role, admins; anonymous shorts only admins). Every such decision of the shorts
   * module is this one.
   */
  may(
    actor: Actor | null,
    s: Pick<ShortEntity, 'ownerId' | 'teamId'>,
    access: Access,
  ): Promise<boolean> {
    return this.policy.may(actor, s, access);
  }

  /**
   * Loads the short `id` through `load` when the caller may read or write it (`may`). Anonymous
   * callers 401, others 403 `not_owner`, unknown 404.
   */
  private async managed<S extends { ownerId: string | null; teamId: string | null }>(
    caller: Actor | null,
    load: (id: string) => Promise<S | null>,
    id: string,
    access: Access,
  ): Promise<S> {
    const actor = activeActor(caller);
    if (!actor) throw new UnauthorizedError();
    const s = await load(id);
    if (!s) throw shortNotFound();
    if (!(await this.may(actor, s, access))) {
      throw new ForbiddenError(
        access === 'read'
          ? 'Only the owner, its team or an admin may see this'
          : 'Only the owner, its team’s editors or an admin may do this',
        'not_owner',
      );
    }
    return s;
  }

  /**
   * The short `id` if the caller may `access` it (write: change it; read: see its reports).
   * Anonymous callers 401, others 403, unknown 404.
   */
  async findOwned(
    id: string,
    caller: Actor | null,
    access: Access = 'write',
  ): Promise<ShortEntity> {
    return this.managed(caller, (a) => this.shorts.findByIdWithOwner(a), id, access);
  }

  /** As findOwned, reading only the short's id, owner and team (for callers that need no more). */
  async findOwnedId(id: string, caller: Actor | null, access: Access = 'read'): Promise<string> {
    return (await this.managed(caller, (a) => this.shorts.findOwnerOf(a), id, access)).id;
  }

  /** As findOwned for a delete, reading only what the delete needs (its identity). */
  findToDelete(
    id: string,
    caller: Actor | null,
  ): Promise<Pick<ShortEntity, 'id' | 'code' | 'domain' | 'ownerId' | 'teamId' | 'dangerous'>> {
    return this.managed(caller, (a) => this.shorts.findIdentity(a), id, 'write');
  }

  /**
   * The domain whose codes a request resolves: the verified own domain it was sent to (`Host`),
   * else the verified domain the request names in `?domain=`, else '' (this service's host; an
   * unknown host never reaches a domain's shorts).
   */
  requestDomain(hostHeader: string | undefined, asked?: unknown): string {
    const own = this.domains.ofRequest(hostHeader);
    if (own) return own.host;
    // On this service's host a page may name a domain (?domain=): its owner's info, statistics and
    // QR code, opened from the own list. Only a verified domain's codes; anything else is the main host.
    if (typeof asked !== 'string' || asked === '') return '';
    const host = requestHost(asked);
    return host && this.domains.get(host)?.verified ? host : '';
  }

  /** Finds a short that visitors may see (not expired, not exhausted) or throws 404. */
  async findVisible(code: string, domain = ''): Promise<ShortEntity> {
    const s = await this.shorts.findByCodeWithOwner(code, domain);
    if (!s || !isLive(s, Date.now())) throw shortNotFound();
    return s;
  }

  /**
   * Whether url and metadata of `s` may be shown to the caller: always to its owner and admins;
   * never to others when the short has `maxUses` (its target is reached only through a claimed
   * use, so asking for it cannot skip the limit or the bots' preview); for a password-protected
   * short only with the right password (wrong → 403, locked → 429); else always.
   */
  async mayReveal(
    s: ShortEntity,
    caller: Actor | null,
    password: string | undefined,
    client: string,
  ): Promise<boolean> {
    if (await this.may(caller, s, 'read')) return true;
    if (s.maxUses !== null) return false;
    if (!s.passwordHash) return true;
    if (password === undefined || password === '') return false;
    const outcome = await this.limiter.check(s.id, client, s.passwordHash, password);
    if (outcome === 'locked')
      throw new TooManyRequestsError(
        'Too many wrong passwords, try again later',
        'password_locked',
      );
    if (outcome === 'wrong') throw new ForbiddenError('Wrong password', 'password_wrong');
    return true;
  }
}
