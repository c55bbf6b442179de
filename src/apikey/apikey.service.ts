import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { EntityManager, Repository } from 'typeorm';
import { AccessPolicy, teamForbidden } from '../access/access-policy';
import { type Actor, isAdmin, type KeyGrant } from '../common/actor';
import { BoundedMap } from '../common/bounded-map';
import {
  BadRequestError,
  ConflictError,
  type ErrorKey,
  NotFoundError,
  ValidationFailedError,
} from '../common/errors';
import { APP_CONFIG, appSecretOf, type AppConfig } from '../config/config';
import { booleanTransformer, dbTimeMs } from '../database/columns';
import { dialectSql, type Engine, engineOf } from '../database/dialect';
import { isUniqueViolation } from '../database/errors';
import { sqliteDatetime } from '../database/sqlite-batch-source';
import { RateLimitService } from '../limits/rate-limit.service';
import {
  API_KEY_NAME_MAX,
  API_KEY_SCOPES,
  type ApiKeyScope,
  LIMIT_API_KEYS,
  READ_SCOPES,
  SHAREX_KEY_NAME,
  TEAM_ROLES,
  type TeamRole,
} from '../shared/teams';
import { API_KEY_PATTERN, ApiKeyCipher, generateApiKey, hashApiKey } from './apikey.crypto';
import { ApiKeyEntity } from './apikey.entity';
import type { ApiKeySummaryDto, CreateApiKeyDto, CreatedApiKeyDto } from './dto/apikey.dto';

/**
 * The user of a key, as the auth pipeline needs it (account's `toActor`): the columns of `users`
 * the key's lookup joins (apikey/ sits below account/ and does not import its entity).
 */
export interface KeyUser {
  id: string;
  username: string;
  roles: string;
  activated: boolean;
}

/** A presented key that is valid now: its user and what the key may do. */
export interface KeyAuthentication {
  user: KeyUser;
  grant: KeyGrant;
}

/** Characters of a key kept in clear as its `prefix` (`us_` and 7 of the random part). */
export const API_KEY_PREFIX_LENGTH = 10;
/** The ShareX key's scopes (CONTRACT "API keys (several, named, scoped)"). */
const SHAREX_SCOPES: readonly ApiKeyScope[] = ['shorts:read', 'shorts:write'];
/** `last_used_at` is written at most this often per key (and instance). */
const LAST_USED_INTERVAL_MS = 60_000;
/** Keys whose last write this instance remembers; the least recently written are forgotten first. */
const LAST_USED_KEYS = 100_000;

const KNOWN_SCOPES: ReadonlySet<string> = new Set(API_KEY_SCOPES);

/** The stored comma list as scopes (unknown entries dropped). */
export function parseScopes(stored: string): ApiKeyScope[] {
  return stored
    .split(',')
    .map((s) => s.trim())
    .filter((s): s is ApiKeyScope => KNOWN_SCOPES.has(s));
}

interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string;
  team_id: string | null;
  team_name: string | null;
  created_at: unknown;
  expires_at: unknown;
  last_used_at: unknown;
}

interface AuthRow {
  key_id: string;
  scopes: string;
  team_id: string | null;
  expires_at: unknown;
  team_role: string | null;
  id: string;
  username: string;
  roles: string;
  activated: unknown;
}

const iso = (v: unknown): string | null => {
  if (v === null || v === undefined) return null;
  const ms = dbTimeMs(v);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
};

/**
 * A user's API keys (CONTRACT "API key", "API keys (several, named, scoped)"): at most
 * LIMIT_API_KEYS per user, each named (unique per user), with scopes, an optional team and expiry.
 * Every key is stored as its SHA-256 hash (lookup) and its prefix; only the spec's key (named
 * `ShareX`) keeps an AES-256-GCM copy so its owner may reveal it again.
 */
@Injectable()
export class ApiKeyService {
  private readonly logger = new Logger('ApiKeys');
  private readonly cipher: ApiKeyCipher;
  private readonly engine: Engine;
  private readonly authSql: string;
  private readonly listSql: string;
  private readonly oneSql: string;
  /** Key id → when this instance last wrote its `last_used_at` (ms). */
  private readonly lastWritten = new BoundedMap<string, number>(
    LAST_USED_KEYS,
    LAST_USED_INTERVAL_MS,
  );
  private lastUsedFailureLoggedAt = Number.NEGATIVE_INFINITY;

  constructor(
    @InjectRepository(ApiKeyEntity) private readonly repo: Repository<ApiKeyEntity>,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly access: AccessPolicy,
    private readonly limits: RateLimitService,
  ) {
    this.cipher = new ApiKeyCipher(appSecretOf(config));
    this.engine = engineOf(repo.manager.connection);
    // One statement per request with a key: the key, its user and (a team's key) its creator's
    // current membership. No cache: a revoke or a removal from the team holds on the next request,
    // on every instance.
    this.authSql = this.sql(
      'SELECT k.id AS key_id, k.scopes, k.team_id, k.expires_at, m.role AS team_role, ' +
        'u.id, u.username, u.roles, u.activated ' +
        'FROM api_keys k JOIN users u ON u.id = k.user_id ' +
        'LEFT JOIN team_members m ON m.team_id = k.team_id AND m.user_id = k.user_id ' +
        'WHERE k.key_hash = ?',
    );
    const summary =
      'SELECT k.id, k.name, k.prefix, k.scopes, k.team_id, t.name AS team_name, k.created_at, ' +
      'k.expires_at, k.last_used_at FROM api_keys k LEFT JOIN teams t ON t.id = k.team_id';
    this.listSql = this.sql(`${summary} WHERE k.user_id = ? ORDER BY k.created_at, k.id`);
    this.oneSql = this.sql(`${summary} WHERE k.id = ?`);
  }

  private sql(text: string): string {
    return dialectSql(this.engine, text);
  }

  // ---- the spec's single key (ShareX) ----

  /** The caller's ShareX key in clear, or 404. */
  async reveal(userId: string): Promise<string> {
    const row = await this.repo.findOne({ where: { userId, name: SHAREX_KEY_NAME } });
    if (!row || !row.keyEncrypted) throw new NotFoundError('No API key yet', 'api_key_missing');
    return this.cipher.decrypt(row.keyEncrypted, userId);
  }

  /**
   * Creates the caller's ShareX key, or replaces it (the old one stops working at once). A new one
   * counts against LIMIT_API_KEYS (409 quota_exceeded when the user holds that many already).
   */
  async renew(userId: string): Promise<string> {
    const key = generateApiKey();
    const patch = {
      keyHash: hashApiKey(key),
      keyEncrypted: this.cipher.encrypt(key, userId),
      prefix: key.slice(0, API_KEY_PREFIX_LENGTH),
      scopes: SHAREX_SCOPES.join(','),
      teamId: null,
      expiresAt: null,
      lastUsedAt: null,
      createdAt: new Date(),
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      const existing = await this.repo.findOne({
        where: { userId, name: SHAREX_KEY_NAME },
        select: { id: true },
      });
      if (existing) {
        const res = await this.repo.update({ id: existing.id, userId }, patch);
        if ((res.affected ?? 0) > 0) {
          this.lastWritten.delete(existing.id);
          return key;
        }
        continue; // deleted meanwhile: insert it anew
      }
      try {
        const outcome = await this.insertCapped({
          id: randomUUID(),
          userId,
          name: SHAREX_KEY_NAME,
          ...patch,
        });
        if (outcome === 'inserted') return key;
        if (outcome === 'quota') throw quotaExceeded();
        // 'name': a parallel first PUT stored it; renew that one
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
    }
    throw new Error('Could not store the API key');
  }

  // ---- several named keys ----

  /** The user's keys, oldest first; never a key, its hash or its encrypted copy. */
  async list(userId: string): Promise<ApiKeySummaryDto[]> {
    const rows: KeyRow[] = await this.repo.manager.query(this.listSql, [userId]);
    return rows.map((r) => this.summary(r));
  }

  /**
   * Creates a named key with scopes, an optional team (the caller must be a member; a viewer's
   * key holds read scopes only) and an optional expiry. The key is shown in this answer only.
   */
  async create(actor: Actor, dto: CreateApiKeyDto): Promise<CreatedApiKeyDto> {
    const name = dto.name.trim();
    const fieldErrors: Record<string, string> = {};
    const fieldKeys: Record<string, ErrorKey> = {};
    if (name.length < 1 || name.length > API_KEY_NAME_MAX) {
      fieldErrors.name = `name must be 1 to ${API_KEY_NAME_MAX} characters long (trimmed)`;
    }
    let expiresAt: Date | null = null;
    if (dto.expiresAt !== undefined && dto.expiresAt !== null) {
      expiresAt = new Date(dto.expiresAt);
      if (expiresAt.getTime() <= Date.now()) {
        fieldErrors.expiresAt = 'expiresAt must be in the future';
        fieldKeys.expiresAt = 'expire_past';
      }
    }
    if (Object.keys(fieldErrors).length) throw new ValidationFailedError(fieldErrors, fieldKeys);
    if (name.toLowerCase() === SHAREX_KEY_NAME.toLowerCase()) {
      throw new ConflictError(
        `The name ${SHAREX_KEY_NAME} is reserved for the ShareX key (PUT /api/self/apikey)`,
        'api_key_name_exists',
      );
    }
    const scopes = API_KEY_SCOPES.filter((s) => dto.scopes.includes(s));
    const teamId = dto.team ?? null;
    if (teamId !== null) {
      const role = await this.access.roleIn(actor, teamId);
      if (role === null) throw teamForbidden();
      if (role === 'viewer' && scopes.some((s) => !READ_SCOPES.includes(s))) {
        throw new BadRequestError(
          `A viewer’s team key may hold only the scopes ${READ_SCOPES.join(', ')}`,
          'api_key_scope_invalid',
        );
      }
    }
    if (!isAdmin(actor)) await this.limits.take('userCreate', actor.id);

    const key = generateApiKey();
    const entity: ApiKeyEntity = {
      id: randomUUID(),
      userId: actor.id,
      name,
      keyHash: hashApiKey(key),
      keyEncrypted: '', // only the ShareX key may be revealed again
      prefix: key.slice(0, API_KEY_PREFIX_LENGTH),
      scopes: scopes.join(','),
      teamId,
      expiresAt,
      lastUsedAt: null,
      createdAt: new Date(),
    };
    let outcome: 'inserted' | 'quota' | 'name';
    try {
      outcome = await this.insertCapped(entity);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      outcome = 'name';
    }
    if (outcome === 'quota') throw quotaExceeded();
    if (outcome === 'name') {
      throw new ConflictError('You already have an API key with this name', 'api_key_name_exists');
    }
    const [row] = (await this.repo.manager.query(this.oneSql, [entity.id])) as KeyRow[];
    if (!row) throw new NotFoundError('API key not found', 'api_key_missing'); // revoked meanwhile
    return { ...this.summary(row), key };
  }

  /** Revokes one of the caller's keys at once (the next request with it, on any instance: 401). */
  async remove(userId: string, id: string): Promise<void> {
    const res = await this.repo.delete({ id, userId });
    if ((res.affected ?? 0) === 0) throw new NotFoundError('API key not found', 'api_key_missing');
    this.lastWritten.delete(id);
  }

  /** Revokes a key by its record id (admins); false when there is none. */
  async revoke(id: string): Promise<boolean> {
    const res = await this.repo.delete({ id });
    this.lastWritten.delete(id);
    return (res.affected ?? 0) > 0;
  }

  /**
   * Inserts a key unless its user holds LIMIT_API_KEYS already or has a key of that name (names
   * compared without case); nothing is written when refused. Two creates at once cannot both pass
   * the count (as DomainService.insertCapped):
   * - SQLite: one statement, `INSERT … SELECT … WHERE (the count) < cap AND no such name`;
   * - MariaDB and PostgreSQL: one READ COMMITTED transaction that locks the user's row (`FOR
   *   UPDATE`), counts and inserts; a second create of the same user, on any instance, waits for
   *   the first's commit and then counts its row.
   * A unique violation (the index on (user_id, name)) is thrown on.
   */
  private async insertCapped(k: ApiKeyEntity): Promise<'inserted' | 'quota' | 'name'> {
    const nameTaken =
      'SELECT COUNT(*) AS n FROM api_keys WHERE user_id = ? AND LOWER(name) = LOWER(?)';
    const count = 'SELECT COUNT(*) AS n FROM api_keys WHERE user_id = ?';
    if (this.engine === 'sqlite') {
      const cols = [
        'id',
        'user_id',
        'key_hash',
        'key_encrypted',
        'created_at',
        'name',
        'prefix',
        'scopes',
        'team_id',
        'expires_at',
        'last_used_at',
      ];
      const values = [
        k.id,
        k.userId,
        k.keyHash,
        k.keyEncrypted,
        sqliteDatetime(k.createdAt),
        k.name,
        k.prefix,
        k.scopes,
        k.teamId,
        k.expiresAt ? sqliteDatetime(k.expiresAt) : null,
        null,
      ];
      const affected = await this.structured(
        `INSERT INTO api_keys (${cols.join(', ')}) SELECT ${cols.map(() => '?').join(', ')} ` +
          `WHERE (${count}) < ? AND (${nameTaken}) = 0`,
        [...values, k.userId, LIMIT_API_KEYS, k.userId, k.name],
      );
      if (affected === 1) return 'inserted';
      return (await this.countOf(this.repo.manager, nameTaken, [k.userId, k.name])) > 0
        ? 'name'
        : 'quota';
    }
    return this.repo.manager.transaction('READ COMMITTED', async (m) => {
      await m.query(this.sql('SELECT id FROM users WHERE id = ? FOR UPDATE'), [k.userId]);
      if ((await this.countOf(m, count, [k.userId])) >= LIMIT_API_KEYS) return 'quota';
      if ((await this.countOf(m, nameTaken, [k.userId, k.name])) > 0) return 'name';
      await m.insert(ApiKeyEntity, k);
      return 'inserted';
    });
  }

  private async countOf(m: EntityManager, text: string, params: unknown[]): Promise<number> {
    const [row] = (await m.query(this.sql(text), params)) as Array<{ n: number | string }>;
    return Number(row.n);
  }

  private async structured(sql: string, params: unknown[]): Promise<number | undefined> {
    const runner = this.repo.manager.connection.createQueryRunner();
    try {
      return (await runner.query(sql, params, true)).affected;
    } finally {
      await runner.release();
    }
  }

  private summary(r: KeyRow): ApiKeySummaryDto {
    return {
      id: r.id,
      name: r.name,
      prefix: r.prefix,
      scopes: parseScopes(r.scopes),
      team: r.team_id === null ? null : { id: r.team_id, name: r.team_name ?? '' },
      createdAt: iso(r.created_at) ?? new Date(0).toISOString(),
      expiresAt: iso(r.expires_at),
      lastUsedAt: iso(r.last_used_at),
    };
  }

  // ---- authentication ----

  /**
   * The key's user and grant, or null for an unknown or expired key, or a team's key whose creator
   * is no longer a member of that team: one statement joining the key, its user and the creator's
   * membership, on every request (no cache). A team key's scopes are capped by its creator's
   * current role (a viewer: read scopes only). Notes the key's use (see noteUse).
   */
  async authenticate(key: string): Promise<KeyAuthentication | null> {
    if (!API_KEY_PATTERN.test(key)) return null;
    const rows: AuthRow[] = await this.repo.manager.query(this.authSql, [hashApiKey(key)]);
    const r = rows[0];
    if (!r) return null;
    if (r.expires_at !== null && r.expires_at !== undefined) {
      const until = dbTimeMs(r.expires_at);
      if (!(until > Date.now())) return null;
    }
    let teamRole: TeamRole | null = null;
    let scopes = parseScopes(r.scopes);
    if (r.team_id !== null && r.team_id !== undefined) {
      if (!TEAM_ROLES.includes(r.team_role as TeamRole)) return null;
      teamRole = r.team_role as TeamRole;
      if (teamRole === 'viewer') scopes = scopes.filter((s) => READ_SCOPES.includes(s));
    }
    this.noteUse(r.key_id);
    return {
      user: {
        id: r.id,
        username: r.username,
        roles: r.roles,
        activated: booleanTransformer.from(r.activated) as boolean,
      },
      grant: { id: r.key_id, scopes, teamId: r.team_id ?? null, teamRole },
    };
  }

  /**
   * Writes the key's `last_used_at` at most once per LAST_USED_INTERVAL_MS, in the background (the
   * request never waits for it): each instance tries at most once per interval and key, and the
   * update itself changes the row only when its `last_used_at` is older than the interval, so N
   * instances sharing the database change it once per interval, not N times. A failing write is
   * logged at most once per interval.
   */
  private noteUse(keyId: string): void {
    const now = Date.now();
    if (this.lastWritten.has(keyId, now)) return;
    this.lastWritten.set(keyId, now, now);
    this.repo
      .createQueryBuilder()
      .update(ApiKeyEntity)
      .set({ lastUsedAt: new Date(now) })
      .where('id = :id', { id: keyId })
      .andWhere('(last_used_at IS NULL OR last_used_at < :cutoff)', {
        cutoff: new Date(now - LAST_USED_INTERVAL_MS),
      })
      .execute()
      .catch((err: unknown) => {
        const at = Date.now();
        if (at - this.lastUsedFailureLoggedAt < LAST_USED_INTERVAL_MS) return;
        this.lastUsedFailureLoggedAt = at;
        this.logger.warn(
          `Could not note an API key's last use (${err instanceof Error ? err.message : String(err)}); further failures this minute are not logged`,
        );
      });
  }
}

function quotaExceeded(): ConflictError {
  return new ConflictError(
    `Quota exceeded: at most ${LIMIT_API_KEYS} API keys per user`,
    'quota_exceeded',
  );
}
