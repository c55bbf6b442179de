import { Algorithm, hash, verify } from '@node-rs/argon2';
import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import { randomUUID } from 'node:crypto';
import { Repository } from 'typeorm';
import { BlacklistService } from '../blacklist/blacklist.service';
import { activeActor, isAdmin, type Actor } from '../common/actor';
import { CacheBus } from '../common/cache-bus';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  TooManyRequestsError,
  UnauthorizedError,
  ValidationFailedError,
  shortNotFound,
} from '../common/errors';
import { containsPattern, type Page, type PageRequest, toPage } from '../common/paging';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { applyOnce } from '../database/apply-once';
import { CountBuffer } from '../database/count-buffer';
import { isUniqueViolation } from '../database/errors';
import { FailureReporter } from '../failure/failure-reporter';
import { CUSTOM_CODE_PATTERN, generateCode, isReservedCode } from './code-generator';
import type { CreateShortDto } from './dto/create-short.dto';
import type { ShortDto } from './dto/short.dto';
import { PasswordLimiter } from './password-limiter';
import { ShortEntity } from './short.entity';
import { parseTargetUrl, ServiceNames } from './target-url';
import type { RequestOrigin } from '../common/request';

export const ANONYMOUS_LIFETIME_MS = 24 * 60 * 60 * 1000;
const CACHE_TTL_MS = 30_000;
const MISSING_TTL_MS = 2_000;
const CLICK_FLUSH_MS = 1_000;
const INVALIDATE_CHANNEL = 'short-invalidate';
/** The one atomic use claim: succeeds at most max_uses times in total, under any concurrency. */
const CLAIM_USE_SQL =
  'UPDATE shorts SET uses = uses + 1 WHERE id = ? AND (max_uses IS NULL OR uses < max_uses)';

/** What the follow path needs of a short; kept in the in-process cache. */
interface CachedShort {
  id: string;
  url: string;
  passwordHash: string | null;
  maxUses: number | null;
  expireAt: number | null;
  dangerous: boolean;
  /** Blacklist verdict, valid while `blacklistVersion` matches the service's version. */
  blacklisted: boolean;
  blacklistVersion: number;
}
const MISSING = Object.freeze({ missing: true as const });
type CacheValue = CachedShort | typeof MISSING;

export type FollowResult =
  | { kind: 'target'; url: string }
  | { kind: 'not-found' | 'dangerous' | 'password-required' | 'wrong-password' | 'locked' };

export interface FollowInput {
  acceptDanger: boolean;
  password?: string;
  client: string;
}

@Injectable()
export class CodeService implements OnModuleInit, OnApplicationShutdown {
  private readonly cache: LRUCache<string, CacheValue> | null;
  private readonly clicks = new CountBuffer();
  private readonly serviceNames: ServiceNames;
  private readonly limiter: PasswordLimiter;
  private flushTimer?: NodeJS.Timeout;

  constructor(
    @InjectRepository(ShortEntity) private readonly repo: Repository<ShortEntity>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly blacklist: BlacklistService,
    private readonly bus: CacheBus,
    private readonly failures: FailureReporter,
  ) {
    bus.on(INVALIDATE_CHANNEL, (code) => this.cache?.delete(code));
    this.cache =
      config.shortCacheSize > 0
        ? new LRUCache({ max: config.shortCacheSize, ttl: CACHE_TTL_MS })
        : null;
    this.serviceNames = new ServiceNames(config.baseUrl, config.port);
    this.limiter = new PasswordLimiter(
      config.passwordMaxTries,
      config.passwordLockSeconds * 1000,
      () => bus.redis,
    );
  }

  onModuleInit(): void {
    this.flushTimer = setInterval(() => void this.flushClicks(), CLICK_FLUSH_MS);
    this.flushTimer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.flushTimer);
    try {
      await this.clicks.drain(this.writeUses);
    } catch (err) {
      this.failures.background(err, 'Writing use counts at shutdown', CodeService.name);
    }
  }

  // ---------------------------------------------------------------- create

  async create(
    dto: CreateShortDto,
    caller: Actor | null,
    origin?: RequestOrigin,
  ): Promise<{ code: string; id: string }> {
    const actor = activeActor(caller);
    const fieldErrors: Record<string, string> = {};
    if (!actor) {
      for (const f of ['code', 'name', 'expireAt', 'maxUses'] as const) {
        if (dto[f] !== undefined && dto[f] !== null)
          fieldErrors[f] = 'Only available to logged-in users';
      }
    }
    const target = parseTargetUrl(
      dto.url,
      this.serviceNames.withRequestHost(origin?.host, origin?.protocol ?? 'http'),
    );
    if ('error' in target) fieldErrors.url = target.error;
    const code = dto.code?.trim() || null;
    if (actor && code !== null) {
      if (!CUSTOM_CODE_PATTERN.test(code)) {
        fieldErrors.code = 'must be 3 to 64 characters of A-Z, a-z, 0-9, _ and -';
      } else if (isReservedCode(code)) {
        fieldErrors.code = 'is reserved';
      }
    }
    if (Object.keys(fieldErrors).length) throw new ValidationFailedError(fieldErrors);

    const now = Date.now();
    let expireAt: Date | null;
    if (actor) {
      if (dto.maxUses !== undefined && dto.maxUses !== null && dto.maxUses < 1) {
        throw new BadRequestError('Uses must be greater than 0');
      }
      expireAt = dto.expireAt ? new Date(dto.expireAt) : null;
      if (expireAt && expireAt.getTime() <= now)
        throw new BadRequestError('Expire At must be in the future');
    } else {
      expireAt = new Date(now + ANONYMOUS_LIFETIME_MS);
    }
    const url = (target as { url: string }).url;
    if (this.blacklist.isBlacklisted(url)) throw new BadRequestError('URL is blacklisted');

    const password = dto.password ? dto.password : null;
    const entity = this.repo.create({
      id: randomUUID(),
      code: code ?? generateCode(),
      name: actor ? dto.name?.trim() || null : null,
      url,
      passwordHash: password ? await hash(password, { algorithm: Algorithm.Argon2id }) : null,
      maxUses: actor ? (dto.maxUses ?? null) : null,
      uses: 0,
      createdAt: new Date(now),
      expireAt,
      ownerId: actor?.id ?? null,
      dangerous: false,
      dangerReason: null,
    });

    for (let attempt = 0; ; attempt++) {
      try {
        await this.repo.insert(entity);
        break;
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        if (code !== null) throw new ConflictError('Code already exists');
        if (attempt >= 5) throw err;
        entity.code = generateCode(); // a collision of generated codes is retried silently
      }
    }
    this.invalidate(entity.code); // drop a cached "missing" on every instance
    return { code: entity.code, id: entity.id };
  }

  // ---------------------------------------------------------------- info

  /** The short as JSON; url withheld when password-protected, unless owner or right password. */
  async info(
    code: string,
    caller: Actor | null,
    password: string | undefined,
    client: string,
  ): Promise<ShortDto> {
    const s = await this.findVisible(code);
    const mayReveal = await this.mayReveal(s, caller, password, client);
    return this.toDto(s, mayReveal);
  }

  /** Finds a short that visitors may see (not expired, not exhausted) or throws 404. */
  async findVisible(code: string): Promise<ShortEntity> {
    const s = await this.repo.findOne({ where: { code }, relations: { owner: true } });
    if (!s || !this.isLive(s, Date.now())) throw shortNotFound();
    return s;
  }

  /**
   * Whether url and metadata of `s` may be shown to the caller: always for unprotected
   * shorts and owners; else only with the right password (wrong → 403, locked → 429).
   */
  async mayReveal(
    s: ShortEntity,
    caller: Actor | null,
    password: string | undefined,
    client: string,
  ): Promise<boolean> {
    if (!s.passwordHash) return true;
    if (caller && (caller.id === s.ownerId || isAdmin(caller))) return true;
    if (password === undefined || password === '') return false;
    if (await this.limiter.isLocked(s.id, client))
      throw new TooManyRequestsError('Too many wrong passwords, try again later');
    if (await verify(s.passwordHash, password)) {
      await this.limiter.succeed(s.id, client);
      return true;
    }
    await this.limiter.fail(s.id, client);
    throw new ForbiddenError('Wrong password');
  }

  toDto(s: ShortEntity, revealUrl: boolean): ShortDto {
    return {
      id: s.id,
      code: s.code,
      name: s.name,
      url: revealUrl ? s.url : null,
      hasPassword: s.passwordHash !== null,
      maxUses: s.maxUses,
      createdAt: s.createdAt.toISOString(),
      expireAt: s.expireAt ? s.expireAt.toISOString() : null,
      owner: s.owner ? { id: s.owner.id, username: s.owner.username } : null,
      dangers: s.dangerous || this.blacklist.isBlacklisted(s.url),
    };
  }

  private isLive(s: ShortEntity, now: number): boolean {
    if (s.expireAt && s.expireAt.getTime() <= now) return false;
    if (s.maxUses !== null && s.uses >= s.maxUses) return false;
    return true;
  }

  // ---------------------------------------------------------------- follow

  /** The follow decision chain of CONTRACT.md "Following a short". */
  async follow(code: string, input: FollowInput): Promise<FollowResult> {
    const result = await this.decideFollow(code, input);
    this.followObserver?.(result.kind);
    return result;
  }

  /** Observer of follow outcomes (metrics): synchronous and cheap, called once per follow. */
  followObserver?: (kind: FollowResult['kind']) => void;

  private async decideFollow(code: string, input: FollowInput): Promise<FollowResult> {
    const s = await this.lookup(code);
    const now = Date.now();
    if (!s || (s.expireAt !== null && s.expireAt <= now)) return { kind: 'not-found' };
    if (!input.acceptDanger && (s.dangerous || this.isBlacklistedCached(s)))
      return { kind: 'dangerous' };
    if (s.passwordHash !== null) {
      if (input.password === undefined) return { kind: 'password-required' };
      if (await this.limiter.isLocked(s.id, input.client, now)) return { kind: 'locked' };
      if (!(await verify(s.passwordHash, input.password))) {
        await this.limiter.fail(s.id, input.client);
        return { kind: 'wrong-password' };
      }
      await this.limiter.succeed(s.id, input.client);
    }
    if (s.maxUses !== null) {
      if (!(await this.claimUse(s.id))) {
        this.cache?.set(code, MISSING, { ttl: MISSING_TTL_MS });
        return { kind: 'not-found' };
      }
    } else {
      this.clicks.add(s.id);
    }
    return { kind: 'target', url: s.url };
  }

  /** One atomic conditional UPDATE: succeeds at most maxUses times in total. */
  private async claimUse(id: string): Promise<boolean> {
    // Plain SQL: the query builder's SQL generation was the largest cost of this path.
    // Expiry was checked on the (fresh or cached) row a moment before.
    const runner = this.repo.manager.connection.createQueryRunner();
    try {
      const res = (await runner.query(CLAIM_USE_SQL, [id], true)) as { affected?: number };
      return res.affected === 1;
    } finally {
      await runner.release();
    }
  }

  private isBlacklistedCached(s: CachedShort): boolean {
    if (s.blacklistVersion !== this.blacklist.version) {
      s.blacklisted = this.blacklist.isBlacklisted(s.url);
      s.blacklistVersion = this.blacklist.version;
    }
    return s.blacklisted;
  }

  private async lookup(code: string): Promise<CachedShort | null> {
    const hit = this.cache?.get(code);
    if (hit) return 'missing' in hit ? null : hit;
    const row = await this.repo.findOne({
      where: { code },
      select: {
        id: true,
        url: true,
        passwordHash: true,
        maxUses: true,
        uses: true,
        expireAt: true,
        dangerous: true,
      },
    });
    if (!row || (row.maxUses !== null && row.uses >= row.maxUses)) {
      this.cache?.set(code, MISSING, { ttl: MISSING_TTL_MS });
      return null;
    }
    const cached: CachedShort = {
      id: row.id,
      url: row.url,
      passwordHash: row.passwordHash,
      maxUses: row.maxUses,
      expireAt: row.expireAt ? row.expireAt.getTime() : null,
      dangerous: row.dangerous,
      blacklisted: false,
      blacklistVersion: -1,
    };
    this.cache?.set(code, cached);
    return cached;
  }

  /** Drops a code from the follow cache of every instance (after any change to the short). */
  invalidate(code: string): void {
    this.bus.publish(INVALIDATE_CHANNEL, code);
  }

  /** Use counts not yet written (distinct shorts). */
  pendingUses(): number {
    return this.clicks.size;
  }

  /** Writes the buffered use counts (exactly once: see CountBuffer and applyOnce). */
  async flushClicks(): Promise<void> {
    try {
      await this.clicks.flush(this.writeUses);
    } catch (err) {
      this.failures.background(err, 'Writing use counts', CodeService.name);
    }
  }

  private readonly writeUses = (batchId: string, counts: ReadonlyMap<string, number>) =>
    applyOnce(this.repo.manager.connection, batchId, async (runner) => {
      for (const [id, n] of counts) {
        await runner.manager
          .createQueryBuilder()
          .update(ShortEntity)
          .set({ uses: () => 'uses + :n' })
          .setParameter('n', n)
          .where('id = :id', { id })
          .execute();
      }
    });

  // ---------------------------------------------------------------- own list

  /**
   * The caller's own shorts, expired and exhausted ones included; `search` matches code, name
   * and url (case-insensitive, LIKE wildcards escaped). Owners always see the url.
   */
  async listOwn(ownerId: string, req: PageRequest, search?: string): Promise<Page<ShortDto>> {
    const qb = this.repo
      .createQueryBuilder('s')
      .leftJoinAndSelect('s.owner', 'owner')
      .where('s.owner_id = :ownerId', { ownerId });
    const term = search?.trim();
    if (term) {
      qb.andWhere(
        "(LOWER(s.code) LIKE :p ESCAPE '!' OR LOWER(s.name) LIKE :p ESCAPE '!' OR LOWER(s.url) LIKE :p ESCAPE '!')",
        { p: containsPattern(term.toLowerCase()) },
      );
    }
    for (const o of req.sort) qb.addOrderBy(o.column, o.direction);
    qb.addOrderBy('s.id', 'ASC').skip(req.offset).take(req.size);
    const [rows, total] = await qb.getManyAndCount();
    return toPage(
      rows.map((s) => this.toDto(s, true)),
      total,
      req,
    );
  }

  // ---------------------------------------------------------------- delete

  async delete(id: string, caller: Actor | null): Promise<void> {
    const actor = activeActor(caller);
    if (!actor) throw new UnauthorizedError();
    const s = await this.repo.findOne({
      where: { id },
      select: { id: true, code: true, ownerId: true },
    });
    if (!s) throw shortNotFound();
    if (!isAdmin(actor) && (s.ownerId === null || s.ownerId !== actor.id)) {
      throw new ForbiddenError('Only the owner or an admin may delete this short');
    }
    await this.repo.delete({ id: s.id });
    this.invalidate(s.code);
  }
}
