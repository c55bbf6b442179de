import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type DataSource, IsNull, type Repository, type SelectQueryBuilder } from 'typeorm';
import { hasNul } from '../common/db-limits';
import { containsPattern, type PageRequest } from '../common/paging';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { dialectSql, engineOf } from '../database/dialect';
import { type Row, rows, run, runTx } from '../database/tx';
import type { HealthFilter } from '../shared/link-health';
import { CODE_MAX_LENGTH } from '../shared/limits';
import { tagKey } from '../shared/tags';
import { SHORT_FIELDS, type ShortFieldName } from '../shared/short-fields';
import { DOMAIN_ROW_SQL, domainShareLock, lockDomain } from './domain-lock';
import { tagSpaceOf } from './short-tag.entity';
import { moveTagStatements, tagStatements } from './short-tags';
import type { HealthRecord } from './short-health';
import { ShortEntity } from './short.entity';

/**
 * Whether a code can be stored at all: every code is written in A-Z, a-z, 0-9, `_` and `-` (custom
 * codes: CUSTOM_CODE_PATTERN; generated ones: a subset) and fits the column. Any other code is not
 * found without a query: MariaDB's collations compare with PAD SPACE (`'abc '` equals `'abc'`), and
 * a NUL or a code past the column's length cannot match either.
 */
const STORED_CODE = new RegExp(`^[A-Za-z0-9_-]{1,${CODE_MAX_LENGTH}}$`);
export function isStorableCode(code: string): boolean {
  return STORED_CODE.test(code);
}

/** findOwnerOf: the short's id and owner. */
const OWNER_SQL = 'SELECT id, owner_id, team_id FROM shorts WHERE id = ?';
/** The ShortEntity properties of the table's fields (`password`: its hash). */
export type FieldColumn = (typeof SHORT_FIELDS)[ShortFieldName]['column'];

/** Fields that the owner's services may change in place. */
export type ShortChanges = Partial<
  Pick<ShortEntity, FieldColumn | 'ownerId' | 'dangerous' | 'dangerReason' | keyof HealthRecord>
>;

/** Whose shorts a list or an export reads: a user's own space or a team's. */
export type Space =
  { ownerId: string; teamId?: undefined } | { teamId: string; ownerId?: undefined };

/** The key of a space in `short_tags.space` (tagSpaceOf). */
function spaceKeyOf(space: Space): string {
  return space.teamId !== undefined ? `t:${space.teamId}` : `u:${space.ownerId}`;
}

/** Restricts a query on `shorts s` to a space (a user's own: his shorts in no team). */
function inSpace(
  qb: SelectQueryBuilder<ShortEntity>,
  space: Space,
): SelectQueryBuilder<ShortEntity> {
  return space.teamId !== undefined
    ? qb.where('s.team_id = :teamId', { teamId: space.teamId })
    : qb.where('s.owner_id = :ownerId AND s.team_id IS NULL', { ownerId: space.ownerId });
}

/**
 * The queries on `shorts` besides the follow path's (ShortFollowRepository) and the writes of new
 * shorts (ShortInsertRepository): a short by code or id, changes, deletes and the owner's list.
 * Only the shorts module writes this table (its services, the follow engine and the cleanup job,
 * through these repositories); other modules go through its services. Not exported from the module.
 */
@Injectable()
export class ShortRepository {
  private readonly ownerSql: string;
  private readonly timeoutMs: number;

  constructor(
    @InjectRepository(ShortEntity) private readonly repo: Repository<ShortEntity>,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.ownerSql = dialectSql(engineOf(repo.manager.connection), OWNER_SQL);
    this.timeoutMs = config.dbTimeoutMs;
  }

  get dataSource(): DataSource {
    return this.repo.manager.connection;
  }

  /**
   * Changes a short that moves onto an own domain (or changes while on one) only while that domain
   * is there, verified: as insertOnDomain (SQLite: `UPDATE … WHERE EXISTS (the domain)`). Answers
   * false when the domain is gone (or the short: nothing written).
   */
  async updateOnDomain(
    id: string,
    changes: ShortChanges,
    domain: { id: string; host: string },
  ): Promise<boolean> {
    const engine = engineOf(this.dataSource);
    if (engine === 'sqlite') {
      const res = await this.repo
        .createQueryBuilder()
        .update(ShortEntity)
        .set(changes)
        .where('id = :id', { id })
        .andWhere(
          'EXISTS (SELECT 1 FROM domains WHERE id = :domainId AND verified_host = :domainHost)',
          { domainId: domain.id, domainHost: domain.host },
        )
        .execute();
      return res.affected === 1;
    }
    return this.dataSource.transaction('READ COMMITTED', async (m) => {
      if (!(await lockDomain(m, domain))) return false;
      if (Object.keys(changes).length) await m.update(ShortEntity, { id }, changes);
      return true;
    });
  }

  /**
   * Changes a short and its tag rows in one transaction (runTx: synchronous on SQLite): its row
   * read and locked (`FOR UPDATE`: two changes of one short take turns), the changes written, then
   * its tag rows set to `tags` (normalised, as the changed column holds them), or, without `tags`,
   * kept; either way in the short's space after the change (its team, else its owner's own,
   * read from the locked row where the change leaves them). With `domain`, only while that own
   * domain is there, as updateOnDomain. Answers `gone` when the short is not there any more,
   * `domain_gone` when the domain is not (nothing written).
   */
  async updateWithTags(
    id: string,
    changes: ShortChanges,
    tags: readonly string[] | undefined,
    domain?: { id: string; host: string },
  ): Promise<'ok' | 'gone' | 'domain_gone'> {
    const { driver } = this.dataSource;
    const sets: string[] = [];
    const params: unknown[] = [];
    for (const [property, value] of Object.entries(changes)) {
      const column = this.repo.metadata.findColumnWithPropertyName(property);
      if (!column) throw new Error(`ShortEntity has no column for ${property}`);
      sets.push(`${driver.escape(column.databaseName)} = ?`);
      params.push(driver.preparePersistentValue(value, column));
    }
    return runTx(this.dataSource, this.timeoutMs, function* ({ engine, lock }) {
      if (domain) {
        const found = (yield rows(
          `${DOMAIN_ROW_SQL}${domainShareLock(engine)}`,
          domain.id,
          domain.host,
        )) as Row[];
        if (found.length === 0) return 'domain_gone' as const;
      }
      const found = (yield rows(
        `SELECT owner_id, team_id FROM shorts WHERE id = ?${lock}`,
        id,
      )) as Row[];
      if (found.length === 0) return 'gone' as const;
      const space = tagSpaceOf({
        ownerId:
          changes.ownerId !== undefined
            ? changes.ownerId
            : ((found[0].owner_id as string | null) ?? null),
        teamId:
          changes.teamId !== undefined
            ? changes.teamId
            : ((found[0].team_id as string | null) ?? null),
      });
      if (sets.length)
        yield run(`UPDATE shorts SET ${sets.join(', ')} WHERE id = ?`, ...params, id);
      if (tags !== undefined) yield* tagStatements(id, space, tags);
      else yield* moveTagStatements(id, space);
      return 'ok' as const;
    });
  }

  /** A short by its code on `domain` (exactly as written: see isStorableCode), with its owner. */
  findByCodeWithOwner(code: string, domain = ''): Promise<ShortEntity | null> {
    if (!isStorableCode(code) || hasNul(domain)) return Promise.resolve(null);
    return this.repo.findOne({ where: { domain, code }, relations: { owner: true, team: true } });
  }

  findByIdWithOwner(id: string): Promise<ShortEntity | null> {
    return this.repo.findOne({ where: { id }, relations: { owner: true, team: true } });
  }

  /** The short `id` and its owner only (an ownership check: one lean statement), or null. */
  async findOwnerOf(id: string): Promise<Pick<ShortEntity, 'id' | 'ownerId' | 'teamId'> | null> {
    const rows: Array<{ id: string; owner_id: string | null; team_id: string | null }> =
      await this.repo.manager.query(this.ownerSql, [id]);
    const r = rows[0];
    return r ? { id: r.id, ownerId: r.owner_id ?? null, teamId: r.team_id ?? null } : null;
  }

  findIdentity(
    id: string,
  ): Promise<Pick<
    ShortEntity,
    'id' | 'code' | 'domain' | 'ownerId' | 'teamId' | 'dangerous'
  > | null> {
    return this.repo.findOne({
      where: { id },
      select: { id: true, code: true, domain: true, ownerId: true, teamId: true, dangerous: true },
    });
  }

  async update(id: string, changes: ShortChanges): Promise<void> {
    if (Object.keys(changes).length) await this.repo.update({ id }, changes);
  }

  /** Sets the danger flag only if it is not set yet; true when this call set it. */
  async flagDangerousOnce(id: string, reason: string): Promise<boolean> {
    const res = await this.repo
      .createQueryBuilder()
      .update(ShortEntity)
      .set({ dangerous: true, dangerReason: reason })
      .where('id = :id', { id })
      .andWhere('dangerous = 0')
      .execute();
    return (res.affected ?? 0) === 1;
  }

  async delete(id: string): Promise<void> {
    await this.repo.delete({ id });
  }

  /** A space's shorts after `afterId` in id order, `limit` at a time (keyset paging for exports). */
  pageOwnedAfter(space: Space, afterId: string | null, limit: number): Promise<ShortEntity[]> {
    const qb = inSpace(this.repo.createQueryBuilder('s'), space)
      .orderBy('s.id', 'ASC')
      .limit(limit);
    if (afterId !== null) qb.andWhere('s.id > :afterId', { afterId });
    return qb.getMany();
  }

  /** The shorts of a user's own space (a team's shorts stay the team's). */
  identitiesOwnedBy(ownerId: string): Promise<Array<Pick<ShortEntity, 'id' | 'code' | 'domain'>>> {
    return this.repo.find({
      where: { ownerId, teamId: IsNull() },
      select: { id: true, code: true, domain: true },
    });
  }

  async deleteOwnedBy(ownerId: string): Promise<void> {
    await this.repo.delete({ ownerId, teamId: IsNull() });
  }

  /** Anonymous shorts that expired before `cutoff`; returns how many were removed. */
  async deleteExpiredAnonymous(cutoff: Date): Promise<number> {
    const res = await this.repo
      .createQueryBuilder()
      .delete()
      .from(ShortEntity)
      .where('owner_id IS NULL')
      .andWhere('expire_at IS NOT NULL AND expire_at < :cutoff', { cutoff })
      .execute();
    return res.affected ?? 0;
  }

  /**
   * A page of the owner's shorts (expired and exhausted included); `search` matches code, name and
   * url case-insensitively (LIKE wildcards escaped); `domain` keeps one domain's ('' the main host).
   */
  listOwn(
    space: Space,
    req: PageRequest,
    { search, domain, health, tags }: OwnFilter = {},
  ): Promise<[ShortEntity[], number]> {
    const qb = inSpace(
      this.repo
        .createQueryBuilder('s')
        .leftJoinAndSelect('s.owner', 'owner')
        .leftJoinAndSelect('s.team', 'team'),
      space,
    );
    if (domain !== undefined) qb.andWhere('s.domain = :domain', { domain });
    if (health === 'broken') qb.andWhere("s.health_state = 'broken'");
    const keys = [...new Set((tags ?? []).map(tagKey))];
    if (keys.length) {
      // The shorts of the space that carry every one of the tags: one range of the index
      // (space, tag, short_id) per tag, counted per short.
      qb.andWhere(
        `s.id IN (SELECT st.short_id FROM short_tags st WHERE st.space = :tagSpace AND st.tag IN (:...tagKeys) GROUP BY st.short_id HAVING COUNT(*) = ${keys.length})`,
        { tagSpace: spaceKeyOf(space), tagKeys: keys },
      );
    }
    const term = search?.trim();
    if (term) {
      qb.andWhere(
        "(LOWER(s.code) LIKE :p ESCAPE '!' OR LOWER(s.name) LIKE :p ESCAPE '!' OR LOWER(s.url) LIKE :p ESCAPE '!')",
        { p: containsPattern(term.toLowerCase()) },
      );
    }
    for (const o of req.sort) qb.addOrderBy(o.column, o.direction);
    // limit/offset (not skip/take): the owner join is many-to-one, and an order by an expression
    // (visits) stays as written.
    qb.addOrderBy('s.id', 'ASC').offset(req.offset).limit(req.size);
    return qb.getManyAndCount();
  }

  /**
   * The tags of a space's shorts with how many carry each, most used first (ties by tag key), at
   * most `limit`: counted over the index (space, tag, short_id) alone, a spelling read for the
   * tags answered only.
   */
  async tagCounts(space: Space, limit: number): Promise<Array<{ tag: string; count: number }>> {
    const engine = engineOf(this.dataSource);
    const found: Array<{ label: string; n: number | string }> = await this.repo.manager.query(
      dialectSql(
        engine,
        `SELECT (SELECT x.label FROM short_tags x WHERE x.space = ? AND x.tag = c.tag ORDER BY x.short_id LIMIT 1) AS label, c.n AS n
         FROM (SELECT tag, COUNT(*) AS n FROM short_tags WHERE space = ? GROUP BY tag ORDER BY n DESC, tag ASC LIMIT ${Number(limit)}) c
         ORDER BY c.n DESC, c.tag ASC`,
      ),
      [spaceKeyOf(space), spaceKeyOf(space)],
    );
    return found.map((r) => ({ tag: r.label, count: Number(r.n) }));
  }

  /** Every short and the sum of their uses, in one query (the start page's live figures). */
  async totals(): Promise<{ shorts: number; uses: number }> {
    const row = await this.repo
      .createQueryBuilder('s')
      .select('COUNT(*)', 'shorts')
      .addSelect('COALESCE(SUM(s.uses), 0)', 'uses')
      .getRawOne<{ shorts: number | string; uses: number | string }>();
    return { shorts: Number(row?.shorts ?? 0), uses: Number(row?.uses ?? 0) };
  }
}

/**
 * Filters of the own list: a search text, one domain ('' for this service's host), the broken
 * ones (link health), the tags a short must all carry.
 */
export interface OwnFilter {
  search?: string;
  domain?: string;
  health?: HealthFilter;
  /** Only the shorts that carry every one of these tags (as given: compared by their keys). */
  tags?: readonly string[];
}
