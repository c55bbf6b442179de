import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes, randomUUID } from 'node:crypto';
import { type EntityManager, In, IsNull, type Repository } from 'typeorm';
import { BlacklistService } from '../blacklist/blacklist.service';
import { normalizeHost } from '../blacklist/host';
import { AccessPolicy, type Owned } from '../access/access-policy';
import { activeActor, type Actor, isAdmin } from '../common/actor';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
  ValidationFailedError,
} from '../common/errors';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { dialectSql, engineOf } from '../database/dialect';
import { isUniqueViolation, onUniqueViolation } from '../database/errors';
import { sqliteDatetime } from '../database/sqlite-batch-source';
import { RateLimitService } from '../limits/rate-limit.service';
import type { ErrorKey } from '../shared/error-keys';
import { parseTargetUrl, ServiceNames } from './target-url';
import { DnsVerifier, verificationRecord, verificationValue } from './dns-verifier';
import { normalizeDomainHost, requestHost } from './domain-host';
import { DomainEntity } from './domain.entity';
import { DomainRegistry } from './domain-registry';
import type { CreateDomainDto, DomainDto, UpdateDomainDto } from './dto/domain.dto';

const domainNotFound = () => new NotFoundError('Domain not exists', 'domain_unknown');

const domainTaken = () => new ConflictError('Domain already exists', 'domain_taken');
/** A pending claim that nobody verified within this is removed (CONTRACT "Hardening"). */
export const CLAIM_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Expired claims removed per run of the job at most (the next run takes the rest). */
const CLAIMS_PER_RUN = 1000;

/**
 * Own domains (CONTRACT "Own domains", "Hardening"): users add their own, admins add shared ones
 * (verified at once). A user's domain is a pending claim until a TXT record verifies it: several
 * users may claim one host, the first to verify it owns it and the other claims of that host are
 * removed; a claim not verified within 7 days is removed by the daily job. A user holds at most
 * LIMIT_DOMAINS domains (pending included) and verifies at most LIMIT_DOMAIN_VERIFY times. The
 * daily job re-checks verified domains and disables one that failed for 7 days. Every change is
 * applied to the registry of every instance for that domain alone.
 */
@Injectable()
export class DomainService {
  private readonly verifier: DnsVerifier;
  private readonly mainHost: string;
  private readonly names: ServiceNames;
  private readonly maxDomains: number;

  constructor(
    @InjectRepository(DomainEntity) private readonly repo: Repository<DomainEntity>,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly registry: DomainRegistry,
    private readonly limits: RateLimitService,
    private readonly blacklist: BlacklistService,
    private readonly policy: AccessPolicy,
  ) {
    this.verifier = new DnsVerifier(config.dns);
    this.mainHost = new URL(config.baseUrl).hostname.toLowerCase();
    this.names = new ServiceNames(config.baseUrl, config.port);
    this.maxDomains = config.limits.domains;
  }

  private get engine() {
    return engineOf(this.repo.manager.connection);
  }

  private sql(text: string): string {
    return dialectSql(this.engine, text);
  }

  /**
   * The domains a caller sees: admins all; users the shared ones, their own and their teams'
   * (a team's key: the shared ones and its team's).
   */
  async list(caller: Actor | null): Promise<DomainDto[]> {
    const actor = this.actor(caller);
    if (isAdmin(actor)) return this.listAll();
    const teams = await this.policy.readableTeams(actor);
    const rows = await this.repo.find({
      where: [
        ...(actor.key?.teamId ? [] : [{ ownerId: actor.id, teamId: IsNull() }]),
        { ownerId: IsNull(), teamId: IsNull() },
        ...(teams.length ? [{ teamId: In(teams) }] : []),
      ],
      relations: { owner: true, team: true },
      order: { host: 'ASC' },
    });
    return rows.map((d) => this.toDto(d));
  }

  /** Every domain with its owner (an admin's list; the operator's CLI). */
  async listAll(): Promise<DomainDto[]> {
    const rows = await this.repo.find({
      relations: { owner: true, team: true },
      order: { host: 'ASC' },
    });
    return rows.map((d) => this.toDto(d));
  }

  /**
   * The operator's check of a host now (the CLI's `domains verify`): every domain of that host
   * (its verified one, or the users' pending claims) is checked as `verify` checks it, without the
   * per-user limit; a claim that passes becomes verified (and the other claims go). Answers the
   * domains as they are afterwards, and whether each passed; none: no domain of that host.
   */
  async verifyHost(host: string): Promise<Array<{ domain: DomainDto; passed: boolean }>> {
    const normal = normalizeDomainHost(host);
    if ('error' in normal)
      throw new ValidationFailedError({ host: normal.error }, { host: 'domain_invalid' });
    const rows = await this.repo.find({
      where: { host: normal.host },
      order: { createdAt: 'ASC' },
    });
    const out: Array<{ domain: DomainDto; passed: boolean }> = [];
    for (const d of rows) {
      // A claim that lost to one verified just before is gone.
      if (!(await this.repo.exists({ where: { id: d.id } }))) continue;
      let passed = true;
      if (d.ownerId !== null) {
        try {
          passed = await this.check(d, new Date(), { verifyOnPass: true });
        } catch (err) {
          // Another claim of the host was verified first: this one is gone.
          if (err instanceof ConflictError) continue;
          throw err;
        }
      }
      const now = await this.repo.findOne({
        where: { id: d.id },
        relations: { owner: true, team: true },
      });
      if (now) out.push({ domain: this.toDto(now), passed });
    }
    return out;
  }

  async create(dto: CreateDomainDto, caller: Actor | null): Promise<DomainDto> {
    const actor = this.actor(caller);
    const shared = dto.shared === true;
    if (shared && !isAdmin(actor)) {
      throw new ForbiddenError('Only admins add shared domains', 'admin_required');
    }
    // A team's domain: a team the caller may write to (a team key: its team unless it names one).
    const teamId = shared ? null : await this.policy.writableTeam(actor, dto.team);
    const fieldErrors: Record<string, string> = {};
    const keys: Record<string, ErrorKey> = {};
    const host = normalizeDomainHost(dto.host);
    if ('error' in host) [fieldErrors.host, keys.host] = [host.error, 'domain_invalid'];
    else if (host.host === this.mainHost) {
      [fieldErrors.host, keys.host] = ['is this service’s own host', 'domain_main_host'];
    }
    const hostName = 'host' in host ? host.host : '';
    this.checkRedirects(dto, hostName, fieldErrors, keys);
    if (Object.keys(fieldErrors).length) throw new ValidationFailedError(fieldErrors, keys);
    // Taken: verified by a domain (another user's, a shared one, or the caller's own).
    if (await this.repo.exists({ where: { verifiedHost: hostName } })) throw domainTaken();
    const entity = this.repo.create({
      id: randomUUID(),
      host: hostName,
      verifiedHost: shared ? hostName : null,
      ownerId: shared ? null : actor.id,
      teamId,
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
    if (shared) {
      await onUniqueViolation(this.repo.insert(entity), domainTaken);
      await this.removeClaims(entity.host, entity.id);
    } else {
      const inserted = await onUniqueViolation(this.insertCapped(entity, actor.id), domainTaken);
      if (!inserted) {
        throw new ConflictError(
          `Quota exceeded: at most ${this.maxDomains} own domains per user`,
          'quota_exceeded',
        );
      }
    }
    await this.registry.changed(entity.id);
    return this.toDto(await this.find(entity.id));
  }

  /**
   * Inserts a user's domain unless the user holds LIMIT_DOMAINS already (pending included); false
   * when refused (nothing written). Two creates at once cannot both pass the count:
   * - SQLite: one statement, `INSERT … SELECT … WHERE (the count) < cap` (one writer at a time);
   * - MariaDB and PostgreSQL: one READ COMMITTED transaction that locks the user's row (`FOR
   *   UPDATE`), counts and inserts: a second create of the same user, on any instance, waits for
   *   the first's commit and then counts its row (READ COMMITTED: a fresh read, and no gap locks
   *   that would make two users' creates deadlock on MariaDB).
   */
  private async insertCapped(d: DomainEntity, ownerId: string): Promise<boolean> {
    if (this.engine === 'sqlite') {
      const cols = [
        'id',
        'host',
        'verified_host',
        'owner_id',
        'verified',
        'enabled',
        'home_redirect',
        'not_found_redirect',
        'token',
        'checked_at',
        'failing_since',
        'fail_reason',
        'created_at',
      ];
      const values = [
        d.id,
        d.host,
        null,
        ownerId,
        0,
        1,
        d.homeRedirect,
        d.notFoundRedirect,
        d.token,
        null,
        null,
        null,
        sqliteDatetime(d.createdAt),
      ];
      return (
        (await this.structured(
          `INSERT INTO domains (${cols.join(', ')}) SELECT ${cols.map(() => '?').join(', ')} WHERE (SELECT COUNT(*) FROM domains WHERE owner_id = ?) < ?`,
          [...values, ownerId, this.maxDomains],
        )) === 1
      );
    }
    return this.repo.manager.transaction('READ COMMITTED', async (m) => {
      await m.query(this.sql('SELECT id FROM users WHERE id = ? FOR UPDATE'), [ownerId]);
      const [row] = (await m.query(
        this.sql('SELECT COUNT(*) AS n FROM domains WHERE owner_id = ?'),
        [ownerId],
      )) as Array<{ n: number | string }>;
      if (Number(row.n) >= this.maxDomains) return false;
      await m.insert(DomainEntity, d);
      return true;
    });
  }

  async update(id: string, dto: UpdateDomainDto, caller: Actor | null): Promise<DomainDto> {
    const actor = this.actor(caller);
    const d = await this.owned(id, actor);
    if (dto.enabled !== undefined && !isAdmin(actor)) {
      throw new ForbiddenError('Only admins enable or disable domains', 'admin_required');
    }
    const fieldErrors: Record<string, string> = {};
    const keys: Record<string, ErrorKey> = {};
    this.checkRedirects(dto, d.host, fieldErrors, keys);
    if (Object.keys(fieldErrors).length) throw new ValidationFailedError(fieldErrors, keys);
    const changes: Partial<DomainEntity> = {};
    if (dto.homeRedirect !== undefined) changes.homeRedirect = dto.homeRedirect;
    if (dto.notFoundRedirect !== undefined) changes.notFoundRedirect = dto.notFoundRedirect;
    if (dto.homePage !== undefined) changes.homePage = await this.checkedHomePage(dto.homePage, d);
    if (dto.enabled !== undefined) {
      changes.enabled = dto.enabled;
      if (dto.enabled) Object.assign(changes, { failingSince: null, failReason: null });
    }
    if (Object.keys(changes).length) {
      await this.repo.update({ id: d.id }, changes);
      await this.registry.changed(d.id);
    }
    return this.toDto(await this.find(d.id));
  }

  /**
   * Checks the TXT record now (a shared domain needs none) and answers the domain. Counts against
   * LIMIT_DOMAIN_VERIFY per user (admins included: each check is a DNS query).
   */
  async verify(id: string, caller: Actor | null): Promise<DomainDto> {
    const actor = this.actor(caller);
    const d = await this.owned(id, actor);
    if (d.ownerId !== null) {
      await this.limits.take('domainVerify', actor.id);
      await this.check(d, new Date(), { verifyOnPass: true });
    }
    return this.toDto(await this.find(d.id));
  }

  async delete(id: string, caller: Actor | null): Promise<void> {
    const d = await this.owned(id, this.actor(caller));
    const outcome = await this.remove(d);
    if (outcome === 'in_use') throw new ConflictError('Domain in use', 'domain_in_use');
    if (outcome === 'gone') throw domainNotFound();
  }

  /**
   * Deletes a domain unless a short lives on its host (CONTRACT "Hardening": a short is never left
   * on a deleted domain). Exclusive with writing a short onto it (ShortInsertRepository.
   * insertOnDomain and ShortRepository.updateOnDomain, which hold the domain's row with a shared
   * lock while they write: shorts/domain-lock.ts):
   * - MariaDB and PostgreSQL: one READ COMMITTED transaction that locks the domain's row (`FOR
   *   UPDATE`), then looks for a short on its host (a fresh read: it sees what committed while it
   *   waited for the lock; no gap locks on `shorts`), then deletes. A write onto the domain
   *   that locked the row first has committed before this looks; one that comes later waits and
   *   then finds no row.
   * - SQLite (one writer; its one connection holds no transaction across awaits): one statement,
   *   `DELETE … WHERE NOT EXISTS (a short on it)`.
   * A pending claim whose host another domain holds verified has no shorts of its own (the shorts
   * on that host are the verified domain's): it is deleted without looking.
   */
  private async remove(d: DomainEntity): Promise<'deleted' | 'in_use' | 'gone'> {
    const shortsAreOthers =
      d.verifiedHost === null && (await this.repo.exists({ where: { verifiedHost: d.host } }));
    let outcome: 'deleted' | 'in_use' | 'gone';
    if (shortsAreOthers) {
      outcome = (await this.repo.delete({ id: d.id })).affected === 1 ? 'deleted' : 'gone';
    } else if (this.engine === 'sqlite') {
      const affected = await this.structured(
        'DELETE FROM domains WHERE id = ? AND NOT EXISTS (SELECT 1 FROM shorts WHERE domain = ?)',
        [d.id, d.host],
      );
      if (affected === 1) outcome = 'deleted';
      else outcome = (await this.repo.exists({ where: { id: d.id } })) ? 'in_use' : 'gone';
    } else {
      outcome = await this.repo.manager.transaction('READ COMMITTED', async (m) => {
        const rows = (await m.query(this.sql('SELECT id FROM domains WHERE id = ? FOR UPDATE'), [
          d.id,
        ])) as unknown[];
        if (rows.length === 0) return 'gone' as const;
        if (await this.anyShortOn(m, d.host)) return 'in_use' as const;
        await m.query(this.sql('DELETE FROM domains WHERE id = ?'), [d.id]);
        return 'deleted' as const;
      });
    }
    if (outcome === 'deleted') await this.registry.changed(d.id);
    return outcome;
  }

  /**
   * Whether a short lives on `host` (inside remove's READ COMMITTED transaction: a fresh read after
   * the domain's lock was granted, so it sees every write that held the lock before).
   */
  private async anyShortOn(m: EntityManager, host: string): Promise<boolean> {
    const rows = (await m.query(this.sql('SELECT 1 AS one FROM shorts WHERE domain = ? LIMIT 1'), [
      host,
    ])) as unknown[];
    return rows.length > 0;
  }

  /** A statement's count of affected rows (SQLite's one runner). */
  private async structured(sql: string, params: unknown[]): Promise<number | undefined> {
    const runner = this.repo.manager.connection.createQueryRunner();
    try {
      return (await runner.query(sql, params, true)).affected;
    } finally {
      await runner.release();
    }
  }

  /** Removes the pending claims of a host that a domain (`winner`) has just verified. */
  private async removeClaims(host: string, winner: string): Promise<void> {
    await this.repo
      .createQueryBuilder()
      .delete()
      .from(DomainEntity)
      .where('host = :host', { host })
      .andWhere('verified_host IS NULL')
      .andWhere('id <> :winner', { winner })
      .execute();
  }

  /**
   * Removes pending claims created before `now - CLAIM_TTL_MS` (at most CLAIMS_PER_RUN a run);
   * answers how many. A claim on whose host shorts live and no verified domain holds it (shorts
   * made on a pending domain before claims could share a host) stays.
   */
  async expireClaims(now: Date): Promise<number> {
    const claims = await this.repo
      .createQueryBuilder('d')
      .where('d.verified_host IS NULL')
      .andWhere('d.created_at < :cutoff', { cutoff: new Date(now.getTime() - CLAIM_TTL_MS) })
      .orderBy('d.created_at', 'ASC')
      .limit(CLAIMS_PER_RUN)
      .getMany();
    let removed = 0;
    for (const d of claims) if ((await this.remove(d)) === 'deleted') removed++;
    return removed;
  }

  /** Whether `host` is the main host or a verified, enabled domain (TLS on demand asks this). */
  allowed(host: string | undefined): boolean {
    const h = requestHost(host);
    if (!h) return false;
    return h === this.mainHost || this.registry.followable(h) !== undefined;
  }

  /**
   * One check of a domain's TXT record. Passing: verified (when `verifyOnPass`, or already), and a
   * failure streak ends; a claim that becomes verified removes the other claims of its host, and
   * one whose host another domain verified first is removed itself (409 `domain_taken`). Failing:
   * the streak starts or goes on, and a verified domain that has failed for `disableAfterMs` is
   * disabled (nothing is deleted). Answers whether it passed.
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
      if (options.verifyOnPass && !d.verified) {
        Object.assign(changes, { verified: true, verifiedHost: d.host });
      }
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
    try {
      await this.repo.update({ id: d.id }, changes);
    } catch (err) {
      if (!changes.verifiedHost || !isUniqueViolation(err)) throw err;
      // Another domain verified this host first: this claim has lost.
      await this.repo.delete({ id: d.id, verifiedHost: IsNull() });
      throw domainTaken();
    }
    if (changes.verifiedHost) await this.removeClaims(d.host, d.id);
    // The webhooks hear when a domain is verified, when its checks start failing, and when that
    // disables it (CONTRACT "Webhooks": domain.verified, domain.failed).
    if (this.events && (d.ownerId || d.teamId)) {
      const space = { ownerId: d.ownerId, teamId: d.teamId };
      const data = (disabled: boolean) => ({
        domain: { id: d.id, host: d.host },
        reason: changes.failReason ?? null,
        disabled,
      });
      if (changes.verified) await this.events('domain.verified', space, data(false));
      else if (
        !result.ok &&
        (d.failingSince === null || (changes.enabled === false && d.enabled))
      ) {
        await this.events('domain.failed', space, data(changes.enabled === false));
      }
    }
    // Pending claims are not in the registry: only a verified domain's change concerns it.
    if (d.verified || changes.verified) await this.registry.changed(d.id);
    return result.ok;
  }

  /** Where domain events go (the webhooks' outbox registers itself). */
  private events:
    | ((
        type: 'domain.verified' | 'domain.failed',
        space: { ownerId: string | null; teamId: string | null },
        data: unknown,
      ) => Promise<unknown>)
    | null = null;

  useEvents(sink: NonNullable<DomainService['events']>): void {
    this.events = sink;
  }

  /**
   * Whether a link page may be the home page of a domain of a space (src/pages registers it; the
   * domains know nothing of pages): none registered refuses every page.
   */
  private homePages: ((pageId: string, space: Owned) => Promise<boolean>) | null = null;

  useHomePages(check: NonNullable<DomainService['homePages']>): void {
    this.homePages = check;
  }

  /**
   * A domain's home page as PATCH sets it: null clears; a page of the domain's owner or team (a
   * shared domain: any page), else 400 (`fieldErrorKeys.homePage`: `field_invalid`).
   */
  private async checkedHomePage(pageId: string | null, d: DomainEntity): Promise<string | null> {
    if (pageId === null) return null;
    const space = { ownerId: d.ownerId, teamId: d.teamId };
    if (this.homePages && (await this.homePages(pageId, space))) return pageId;
    throw new ValidationFailedError(
      { homePage: 'must be a page of the domain’s owner or team' },
      { homePage: 'field_invalid' },
    );
  }

  /**
   * After page `pageId` moved to another space: each domain that shows it at its `/` and may no
   * longer (checkedHomePage's rule) loses it as its home page, on every instance.
   */
  async releaseHomePage(pageId: string): Promise<void> {
    const named = await this.repo.find({ where: { homePage: pageId } });
    for (const d of named) {
      const space = { ownerId: d.ownerId, teamId: d.teamId };
      if (this.homePages && (await this.homePages(pageId, space))) continue;
      await this.repo.update({ id: d.id, homePage: pageId }, { homePage: null });
      await this.registry.changed(d.id);
    }
  }

  /** Verified domains of users, for the daily re-check. */
  verifiedUserDomains(): Promise<DomainEntity[]> {
    return this.repo
      .createQueryBuilder('d')
      .where('d.owner_id IS NOT NULL')
      .andWhere('d.verified_host IS NOT NULL')
      .getMany();
  }

  /**
   * A domain's redirects follow the target rules of a short's url (CONTRACT "Hardening"): the
   * shorts' own check (http/https, a real host, no user name, the blacklist, not this service's
   * names), and not a host this instance serves: the domain itself, and every verified, enabled
   * domain. Field errors carry the shorts' keys (`url_blacklisted`, `url_self`); a malformed URL
   * keeps the domains' `redirect_invalid`.
   */
  private checkRedirects(
    dto: { homeRedirect?: string | null; notFoundRedirect?: string | null },
    ownHost: string,
    fieldErrors: Record<string, string>,
    keys: Record<string, ErrorKey>,
  ): void {
    for (const field of ['homeRedirect', 'notFoundRedirect'] as const) {
      const v = dto[field];
      if (typeof v !== 'string') continue;
      const error = this.redirectError(v, ownHost);
      if (error) [fieldErrors[field], keys[field]] = error;
    }
  }

  private redirectError(url: string, ownHost: string): [string, ErrorKey] | null {
    let host: string | null = null;
    try {
      const u = new URL(url);
      if (u.protocol === 'http:' || u.protocol === 'https:') host = normalizeHost(u.hostname);
    } catch {
      // malformed: the shared check below says why
    }
    if (host && (host === this.mainHost || host === ownHost || this.registry.followable(host))) {
      return ['must not point to a host this service serves', 'url_self'];
    }
    // A short's target check (field-checks.ts, the `url` row): the form, not this service, not
    // blacklisted; the key of a malformed one is the redirect's own.
    const target = parseTargetUrl(url, this.names);
    if ('error' in target) return [target.error, target.self ? 'url_self' : 'redirect_invalid'];
    if (this.blacklist.isBlacklisted(target.url)) return ['is blacklisted', 'url_blacklisted'];
    return null;
  }

  private actor(caller: Actor | null): Actor {
    const actor = activeActor(caller);
    if (!actor) throw new UnauthorizedError();
    return actor;
  }

  private async find(id: string): Promise<DomainEntity> {
    const d = await this.repo.findOne({ where: { id }, relations: { owner: true, team: true } });
    if (!d) throw domainNotFound();
    return d;
  }

  /**
   * A domain the actor may manage (AccessPolicy: its owner, its team's owners and editors, or an
   * admin; shared domains: admins only).
   */
  private async owned(id: string, actor: Actor): Promise<DomainEntity> {
    const d = await this.repo.findOne({ where: { id }, relations: { owner: true, team: true } });
    if (!d) throw domainNotFound();
    if (!(await this.policy.may(actor, d, 'write'))) {
      throw new ForbiddenError(
        'Only the owner, its team’s editors or an admin may do this',
        'not_owner',
      );
    }
    return d;
  }

  toDto(d: DomainEntity): DomainDto {
    return {
      id: d.id,
      host: d.host,
      owner: d.owner ? { id: d.owner.id, username: d.owner.username } : null,
      team: d.teamId ? { id: d.teamId, name: d.team?.name ?? '' } : null,
      verified: d.verified,
      enabled: d.enabled,
      homeRedirect: d.homeRedirect,
      notFoundRedirect: d.notFoundRedirect,
      homePage: d.homePage ?? null,
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
