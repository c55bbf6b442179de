import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes, randomUUID } from 'node:crypto';
import { IsNull, type Repository } from 'typeorm';
import { activeActor, type Actor, isAdmin, isOwnerOrAdmin } from '../common/actor';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
  ValidationFailedError,
} from '../common/errors';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { onUniqueViolation } from '../database/errors';
import { MAX_URL_LENGTH } from '../shared/limits';
import { DnsVerifier, verificationRecord, verificationValue } from './dns-verifier';
import { normalizeDomainHost, requestHost } from './domain-host';
import { DomainEntity } from './domain.entity';
import { DomainRegistry } from './domain-registry';
import type { CreateDomainDto, DomainDto, UpdateDomainDto } from './dto/domain.dto';

/** How many shorts are on a domain (the shorts module answers; a domain in use is not deleted). */
export interface DomainUsage {
  shortsOn(host: string): Promise<number>;
}

const domainNotFound = () => new NotFoundError('Domain not exists', 'domain_unknown');

/** An absolute http(s) URL for a redirect, or the field error. */
function redirectError(url: string): string | null {
  if (url.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters long`;
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'must be an http or https URL';
    if (u.username || u.password) return 'must not contain a user name or password';
    return null;
  } catch {
    return 'must be an absolute http or https URL';
  }
}

/**
 * Own domains (CONTRACT "Own domains"): users add their own, admins add shared ones (verified at
 * once). A user's domain is verified by a TXT record through DnsVerifier; the daily job re-checks
 * verified domains and disables one that failed for 7 days. Every change reloads the registry of
 * every instance.
 */
@Injectable()
export class DomainService {
  private readonly verifier: DnsVerifier;
  private readonly mainHost: string;
  private usage: DomainUsage | null = null;

  constructor(
    @InjectRepository(DomainEntity) private readonly repo: Repository<DomainEntity>,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly registry: DomainRegistry,
  ) {
    this.verifier = new DnsVerifier(config.dns);
    this.mainHost = new URL(config.baseUrl).hostname.toLowerCase();
  }

  /** Where the count of a domain's shorts comes from (the shorts module registers itself). */
  useUsage(usage: DomainUsage): void {
    this.usage = usage;
  }

  /** The domains a caller sees: admins all, users the shared ones and their own. */
  async list(caller: Actor | null): Promise<DomainDto[]> {
    const actor = this.actor(caller);
    const rows = await this.repo.find({
      where: isAdmin(actor) ? {} : [{ ownerId: actor.id }, { ownerId: IsNull() }],
      relations: { owner: true },
      order: { host: 'ASC' },
    });
    return rows.map((d) => this.toDto(d));
  }

  async create(dto: CreateDomainDto, caller: Actor | null): Promise<DomainDto> {
    const actor = this.actor(caller);
    const shared = dto.shared === true;
    if (shared && !isAdmin(actor)) {
      throw new ForbiddenError('Only admins add shared domains', 'admin_required');
    }
    const fieldErrors: Record<string, string> = {};
    const keys: Record<string, 'domain_invalid' | 'domain_main_host' | 'redirect_invalid'> = {};
    const host = normalizeDomainHost(dto.host);
    if ('error' in host) [fieldErrors.host, keys.host] = [host.error, 'domain_invalid'];
    else if (host.host === this.mainHost) {
      [fieldErrors.host, keys.host] = ['is this service’s own host', 'domain_main_host'];
    }
    this.checkRedirects(dto, fieldErrors, keys);
    if (Object.keys(fieldErrors).length) throw new ValidationFailedError(fieldErrors, keys);
    const entity = this.repo.create({
      id: randomUUID(),
      host: (host as { host: string }).host,
      ownerId: shared ? null : actor.id,
      verified: shared,
      enabled: true,
      homeRedirect: dto.homeRedirect ?? null,
      notFoundRedirect: dto.notFoundRedirect ?? null,
      token: randomBytes(24).toString('base64url'),
      checkedAt: null,
      failingSince: null,
      failReason: null,
      createdAt: new Date(),
    });
    await onUniqueViolation(
      this.repo.insert(entity),
      () => new ConflictError('Domain already exists', 'domain_taken'),
    );
    await this.registry.changed();
    return this.toDto(await this.find(entity.id));
  }

  async update(id: string, dto: UpdateDomainDto, caller: Actor | null): Promise<DomainDto> {
    const actor = this.actor(caller);
    const d = await this.owned(id, actor);
    if (dto.enabled !== undefined && !isAdmin(actor)) {
      throw new ForbiddenError('Only admins enable or disable domains', 'admin_required');
    }
    const fieldErrors: Record<string, string> = {};
    const keys: Record<string, 'redirect_invalid'> = {};
    this.checkRedirects(dto, fieldErrors, keys);
    if (Object.keys(fieldErrors).length) throw new ValidationFailedError(fieldErrors, keys);
    const changes: Partial<DomainEntity> = {};
    if (dto.homeRedirect !== undefined) changes.homeRedirect = dto.homeRedirect;
    if (dto.notFoundRedirect !== undefined) changes.notFoundRedirect = dto.notFoundRedirect;
    if (dto.enabled !== undefined) {
      changes.enabled = dto.enabled;
      if (dto.enabled) Object.assign(changes, { failingSince: null, failReason: null });
    }
    if (Object.keys(changes).length) await this.repo.update({ id: d.id }, changes);
    await this.registry.changed();
    return this.toDto(await this.find(d.id));
  }

  /** Checks the TXT record now (a shared domain needs none) and answers the domain. */
  async verify(id: string, caller: Actor | null): Promise<DomainDto> {
    const d = await this.owned(id, this.actor(caller));
    if (d.ownerId !== null) await this.check(d, new Date(), { verifyOnPass: true });
    return this.toDto(await this.find(d.id));
  }

  async delete(id: string, caller: Actor | null): Promise<void> {
    const d = await this.owned(id, this.actor(caller));
    if (this.usage && (await this.usage.shortsOn(d.host)) > 0) {
      throw new ConflictError('Domain in use', 'domain_in_use');
    }
    await this.repo.delete({ id: d.id });
    await this.registry.changed();
  }

  /** Whether `host` is the main host or a verified, enabled domain (TLS on demand asks this). */
  allowed(host: string | undefined): boolean {
    const h = requestHost(host);
    if (!h) return false;
    return h === this.mainHost || this.registry.followable(h) !== undefined;
  }

  /**
   * One check of a domain's TXT record. Passing: verified (when `verifyOnPass`, or already), and a
   * failure streak ends. Failing: the streak starts or goes on, and a verified domain that has failed
   * for `disableAfterMs` is disabled (nothing is deleted). Answers whether it passed.
   */
  async check(
    d: DomainEntity,
    now: Date,
    options: { verifyOnPass?: boolean; disableAfterMs?: number } = {},
  ): Promise<boolean> {
    const result = await this.verifier.verify(d.host, d.token);
    const changes: Partial<DomainEntity> = { checkedAt: now };
    if (result.ok) {
      Object.assign(changes, { failingSince: null, failReason: null });
      if (options.verifyOnPass) changes.verified = true;
      if (d.failReason !== null && d.verified) changes.enabled = true;
    } else {
      changes.failReason = result.reason;
      changes.failingSince = d.failingSince ?? now;
      const since = (changes.failingSince as Date).getTime();
      if (
        d.verified &&
        options.disableAfterMs !== undefined &&
        now.getTime() - since >= options.disableAfterMs
      ) {
        changes.enabled = false;
      }
    }
    await this.repo.update({ id: d.id }, changes);
    await this.registry.changed();
    return result.ok;
  }

  /** Verified domains of users, for the daily re-check. */
  verifiedUserDomains(): Promise<DomainEntity[]> {
    return this.repo
      .createQueryBuilder('d')
      .where('d.owner_id IS NOT NULL')
      .andWhere('d.verified = 1')
      .getMany();
  }

  private checkRedirects(
    dto: { homeRedirect?: string | null; notFoundRedirect?: string | null },
    fieldErrors: Record<string, string>,
    keys: Record<string, string>,
  ): void {
    for (const field of ['homeRedirect', 'notFoundRedirect'] as const) {
      const v = dto[field];
      if (typeof v !== 'string') continue;
      const error = redirectError(v);
      if (error) [fieldErrors[field], keys[field]] = [error, 'redirect_invalid'];
    }
  }

  private actor(caller: Actor | null): Actor {
    const actor = activeActor(caller);
    if (!actor) throw new UnauthorizedError();
    return actor;
  }

  private async find(id: string): Promise<DomainEntity> {
    const d = await this.repo.findOne({ where: { id }, relations: { owner: true } });
    if (!d) throw domainNotFound();
    return d;
  }

  /** A domain the actor may manage: its owner, or an admin (shared domains: admins only). */
  private async owned(id: string, actor: Actor): Promise<DomainEntity> {
    const d = await this.repo.findOne({ where: { id }, relations: { owner: true } });
    if (!d) throw domainNotFound();
    if (!isOwnerOrAdmin(actor, d.ownerId)) {
      throw new ForbiddenError('Only the owner or an admin may do this', 'not_owner');
    }
    return d;
  }

  toDto(d: DomainEntity): DomainDto {
    return {
      id: d.id,
      host: d.host,
      owner: d.owner ? { id: d.owner.id, username: d.owner.username } : null,
      verified: d.verified,
      enabled: d.enabled,
      homeRedirect: d.homeRedirect,
      notFoundRedirect: d.notFoundRedirect,
      verification: {
        record: verificationRecord(d.host),
        value: verificationValue(d.token),
        token: d.token,
        target: this.mainHost,
        checkedAt: d.checkedAt ? d.checkedAt.toISOString() : null,
        failingSince: d.failingSince ? d.failingSince.toISOString() : null,
        reason: d.failReason,
      },
      createdAt: d.createdAt.toISOString(),
    };
  }
}
