import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type DataSource, IsNull, type Repository, type SelectQueryBuilder } from 'typeorm';
import { hasNul } from '../common/db-limits';
import { containsPattern, type PageRequest } from '../common/paging';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { dialectSql, type Engine, engineOf } from '../database/dialect';
import { type Row, rows, run, runTx } from '../database/tx';
import type { HealthFilter } from '../shared/link-health';
import { CODE_MAX_LENGTH } from '../shared/limits';
import { tagKey } from '../shared/tags';
import { SHORT_FIELDS, type ShortFieldName } from '../shared/short-fields';
import { domainStillThere, lockDomain } from './domain-lock';
import { tagSpaceOf } from './short-tag.entity';
import { moveTagStatements, tagStatements } from './short-tags';
import { PgNamedStatements } from '../database/pg-named';
import type { HealthRecord } from './short-health';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { UserEntity } from '../account/user.entity';
import type { TeamEntity } from '../teams/team.entity';
import { ShortEntity, sqlColumnOf } from './short.entity';
import { TagCountCache, type TaggedCount } from './tag-count-cache';

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

/** A column of the own list's page and how its raw value is hydrated (undefined: as it is). */
interface PageColumn {
  /** The short's property it is set to; undefined: set by TypeORM (embedded or virtual). */
  property: string | undefined;
  name: string;
  hydrate: ((value: unknown) => unknown) | undefined;
  column: ColumnMetadata;
}

/** A short of the own list's page and its visits. */
export interface ListedShort {
  short: ShortEntity;
  visits: number;
}

/** Whose shorts a list or an export reads: a user's own space or a team's. */
export type Space =
  { ownerId: string; teamId?: undefined } | { teamId: string; ownerId?: undefined };

/** The key of a space in `short_tags.space` (tagSpaceOf). */
function spaceKeyOf(space: Space): string {
  return space.teamId !== undefined ? `t:${space.teamId}` : `u:${space.ownerId}`;
}

/**
 * Restricts a query on `shorts s` to a space (a user's own: his shorts in no team). `byId`
 * (SQLite): the space's indexes are not to be used (SQLite's `+`), so that the query reads its
 * shorts by id from a condition that names few (the shorts with some tags), not all of the space.
 */
function inSpace(
  qb: SelectQueryBuilder<ShortEntity>,
  space: Space,
  byId = false,
): SelectQueryBuilder<ShortEntity> {
  const not = byId ? '+' : '';
  return space.teamId !== undefined
    ? qb.where(`${not}s.team_id = :teamId`, { teamId: space.teamId })
    : qb.where(`${not}s.owner_id = :ownerId AND ${not}s.team_id IS NULL`, {
        ownerId: space.ownerId,
      });
}

/** Up to this many shorts with the tags of a list's filter, its page reads them by id. */
const TAG_READ_BY_ID_MAX = 1000;
/** Rows of short_tags counted per slice of GET /api/tags on SQLite (a few milliseconds each). */
const TAG_COUNT_SLICE = 20_000;
/** Spellings of tags read per query of GET /api/tags. */
const TAG_LABELS_PER_QUERY = 100;

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
  /** pageColumns, made on first use. */
  private shortColumns?: { select: string; columns: PageColumn[] };

  constructor(
    @InjectRepository(ShortEntity) private readonly repo: Repository<ShortEntity>,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly countCache: TagCountCache,
  ) {
    this.ownerSql = dialectSql(engineOf(repo.manager.connection), OWNER_SQL);
    this.timeoutMs = config.dbTimeoutMs;
  }

  /** The tag index walk's pages by name on PostgreSQL (listOwn); made at first use. */
  private pgPages?: PgNamedStatements;

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
   * `domain_gone` when the domain is not (nothing written). The tag counts of the space before and
   * after are dropped once the transaction is over (TagCountCache).
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
    // The spaces whose tag rows the transaction writes (before and after the change).
    const spaces: Array<string | null> = [];
    try {
      return await runTx(this.dataSource, this.timeoutMs, function* ({ engine, lock }) {
        if (domain && !(yield* domainStillThere(engine, domain))) return 'domain_gone' as const;
        const found = (yield rows(
          `SELECT owner_id, team_id FROM shorts WHERE id = ?${lock}`,
          id,
        )) as Row[];
        if (found.length === 0) return 'gone' as const;
        spaces.push(
          tagSpaceOf({
            ownerId: (found[0].owner_id as string | null) ?? null,
            teamId: (found[0].team_id as string | null) ?? null,
          }),
        );
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
        spaces.push(space);
        if (tags !== undefined) yield* tagStatements(id, space, tags);
        else yield* moveTagStatements([id], space);
        return 'ok' as const;
      });
    } finally {
      // Also after an error: a commit whose answer was lost may have written them.
      this.countCache.spacesChanged(spaces);
    }
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

  /** Deletes a short (its tag rows go with it: its space's tag counts are dropped). */
  async delete(s: Pick<ShortEntity, 'id' | 'ownerId' | 'teamId'>): Promise<void> {
    try {
      await this.repo.delete({ id: s.id });
    } finally {
      this.countCache.spacesChanged([tagSpaceOf(s)]);
    }
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

  /** Deletes a user's own shorts (their tag rows go with them: his space's counts are dropped). */
  async deleteOwnedBy(ownerId: string): Promise<void> {
    try {
      await this.repo.delete({ ownerId, teamId: IsNull() });
    } finally {
      this.countCache.spacesChanged([tagSpaceOf({ ownerId, teamId: null })]);
    }
  }

  /**
   * Anonymous shorts that expired before `cutoff`; returns how many were removed. They have no
   * space and so no tag rows, unless an admin moved one into a team (its owner stays none): the
   * tag counts of those teams are dropped.
   */
  async deleteExpiredAnonymous(cutoff: Date): Promise<number> {
    const expired = 'owner_id IS NULL AND expire_at IS NOT NULL AND expire_at < :cutoff';
    const teams = await this.repo
      .createQueryBuilder('s')
      .select('DISTINCT s.team_id', 'team_id')
      .where(expired, { cutoff })
      .andWhere('team_id IS NOT NULL')
      .getRawMany<{ team_id: string }>();
    try {
      const res = await this.repo
        .createQueryBuilder()
        .delete()
        .from(ShortEntity)
        .where(expired, { cutoff })
        .execute();
      return res.affected ?? 0;
    } finally {
      this.countCache.spacesChanged(teams.map((r) => `t:${r.team_id}`));
    }
  }

  /**
   * A page of the owner's shorts (expired and exhausted included); `search` matches code, name and
   * url case-insensitively (LIKE wildcards escaped); `domain` keeps one domain's ('' the main host);
   * `tags` keeps the shorts that carry every one of them (see taggedFilter). `visitsSql`: the SQL of
   * a short's visits over the alias `s` (ShortVisitsSource.orderExpression), read with each short.
   */
  async listOwn(
    space: Space,
    req: PageRequest,
    { search, domain, health, tags }: OwnFilter = {},
    ownerName?: string,
    visitsSql = '0',
  ): Promise<[ListedShort[], number]> {
    const term = search?.trim();
    const keys = [...new Set((tags ?? []).map(tagKey))];
    // Kept per space and set of tags (TagCountCache): paging through one filter counts once.
    const tagged = keys.length
      ? await this.countCache.count(spaceKeyOf(space), keys, () => this.taggedCount(space, keys))
      : undefined;
    // Without other filters the tag rows' count is the total (the rows are the space's shorts).
    const total =
      tagged && !term && domain === undefined && health !== 'broken' ? tagged.count : undefined;
    if (tagged?.count === 0 || (total !== undefined && req.offset >= total))
      return [[], tagged!.count];
    const engine = engineOf(this.dataSource);
    // Nothing filtered but the tags, in the order of creation: the rarest tag's range of the index
    // (space, tag, created_at, short_id) is the page's order already (tagIndexWalk).
    const byTagIndex =
      tagged !== undefined &&
      total !== undefined &&
      req.sort.length === 1 &&
      req.sort[0].field === 'createdAt';
    // Few shorts with the tags: read by id (SQLite is told not to walk the space instead).
    const byId = tagged !== undefined && !byTagIndex && !this.walksWithTags(tagged.count, req);
    // The page's conditions, on the page's query and on its count's (which joins nothing).
    const not = byId && engine === 'sqlite' ? '+' : '';
    const where: string[] = [];
    const params: unknown[] = [];
    if (space.teamId !== undefined) {
      where.push(`${not}s.team_id = ?`);
      params.push(space.teamId);
    } else {
      where.push(`${not}s.owner_id = ?`, `${not}s.team_id IS NULL`);
      params.push(space.ownerId);
    }
    if (domain !== undefined) {
      where.push('s.domain = ?');
      params.push(domain);
    }
    if (health === 'broken') where.push("s.health_state = 'broken'");
    if (tagged && !byTagIndex)
      taggedFilter(where, params, space, keys, tagged.rarest, byId, engine);
    if (term) {
      where.push(
        "(LOWER(s.code) LIKE ? ESCAPE '!' OR LOWER(s.name) LIKE ? ESCAPE '!' OR LOWER(s.url) LIKE ? ESCAPE '!')",
      );
      const pattern = containsPattern(term.toLowerCase());
      params.push(pattern, pattern, pattern);
    }
    const conditions = where.join(' AND ');
    // Ties are broken by the id in the order's own direction, so MariaDB and PostgreSQL read the
    // space's index by time in that direction (its entries end in the id) instead of sorting all
    // of the space's shorts first: page 10 of a space of 100,000 shorts by `createdAt,desc` with
    // the tie by `id ASC` sorted them all on MariaDB (160-270 ms). The ids are random, so no order
    // among shorts of the same millisecond is lost. An order by the id itself needs no tie.
    const tie = req.sort[0]?.direction ?? 'ASC';
    const order = req.sort.map((o) => `${sortSql(o.column)} ${o.direction}`);
    if (!req.sort.some((o) => sortSql(o.column) === 's.id')) order.push(`s.id ${tie}`);
    // Written by hand and hydrated column by column as getMany would (hydrateShortRow): the query
    // builder's SQL generation and its entity hydration of the joined owner and team were most of
    // the app's CPU for a page of 20 shorts (docs/performance.md). In the caller's own space every
    // short's owner is the caller and none has a team: nothing is joined (the joins doubled
    // PostgreSQL's planning of the page, 0.5 against 1 ms).
    const own = space.ownerId !== undefined && ownerName !== undefined;
    const joinedColumns = own
      ? ''
      : ', u.id AS owner_ref, u.username AS owner_username, t.name AS team_name';
    const joins = own
      ? ''
      : ' LEFT JOIN users u ON u.id = s.owner_id LEFT JOIN teams t ON t.id = s.team_id';
    const orderBy = `ORDER BY ${order.join(', ')}`;
    const limit = `LIMIT ${Number(req.size)} OFFSET ${Number(req.offset)}`;
    // The page is read as the ids of its shorts (the page's conditions, order and offset) joined
    // to their rows: only the page's rows are read whole, and its visits (`visitsSql`) are summed
    // in the same statement for those rows alone (a subquery of the select list over the plain
    // page was summed for every row the offset skips too, on PostgreSQL). MariaDB's walk of a
    // space by tags read the clustered row of every short it walked (for `team_id IS NULL` and the
    // select list) before testing its tags; the space's index ((owner_id, team_id, created_at), a
    // team's (team_id, created_at)) carries the id, so the walk for the ids tests the tags from
    // the index alone (half the pages touched, docs/performance.md). The join's order is fixed
    // (MariaDB's STRAIGHT_JOIN, SQLite's CROSS JOIN; PostgreSQL joins 20 rows by a nested loop):
    // a join over the index let MariaDB start from short_tags (748 ms).
    const join = engine === 'mysql' ? 'STRAIGHT_JOIN' : engine === 'sqlite' ? 'CROSS JOIN' : 'JOIN';
    const ids =
      byTagIndex && tagged
        ? tagIndexWalk(spaceKeyOf(space), keys, tagged.rarest, req, engine)
        : { sql: `SELECT s.id FROM shorts s WHERE ${conditions} ${orderBy} ${limit}`, params };
    const pageSql = dialectSql(
      engine,
      `SELECT ${this.pageColumns().select}${joinedColumns}, ${visitsSql} AS list_visits
       FROM (${ids.sql}) k
       ${join} shorts s ON s.id = k.id${joins} ${orderBy}`,
    );
    const owner = own ? { id: space.ownerId, username: ownerName } : undefined;
    // PostgreSQL planned the walk of a tag's index each time it was sent unnamed (1.5-2.6 ms of the
    // server's CPU, more than the 0.7-2.9 ms it took to run): by name it is planned once per
    // connection. Its plan does not depend on the values (an index range in the index's order, a
    // test per entry, 20 rows by their key), so a generic plan is the same plan.
    const named = byTagIndex && engine === 'postgres';
    if (named) this.pgPages ??= new PgNamedStatements(this.dataSource, 'url_shorter_tag_page', 100);
    const page = async (): Promise<ListedShort[]> =>
      (
        (named
          ? await this.pgPages!.query(pageSql, ids.params)
          : await this.repo.manager.query(pageSql, ids.params)) as Array<Record<string, unknown>>
      ).map((row) => ({
        short: this.hydrateShortRow(row, owner),
        visits: Number(row.list_visits ?? 0),
      }));
    if (total !== undefined) return [await page(), total];
    // COUNT(*) of the shorts alone (joining nothing).
    const countSql = dialectSql(engine, `SELECT COUNT(*) AS n FROM shorts s WHERE ${conditions}`);
    const [rows, counted] = await Promise.all([
      page(),
      this.repo.manager.query(countSql, params) as Promise<Array<{ n: number | string }>>,
    ]);
    return [rows, Number(counted[0]?.n ?? 0)];
  }

  /**
   * The page's select list (every column of the short) and how each column's value is hydrated,
   * made once: a text or integer column without a transformer as the driver returns it (every
   * driver's prepareHydratedValue leaves those alone), any other through prepareHydratedValue.
   */
  private pageColumns(): { select: string; columns: PageColumn[] } {
    if (!this.shortColumns) {
      const driver = this.dataSource.driver;
      const columns = this.repo.metadata.columns;
      this.shortColumns = {
        select: columns.map((c) => `s.${driver.escape(c.databaseName)}`).join(', '),
        columns: columns.map((c) => {
          // An embedded or virtual column is set by TypeORM's own setEntityValue; a plain one is
          // a property of the short (what setEntityValue does for it).
          const own = !c.embeddedMetadata && !c.isVirtual;
          const plain =
            own &&
            !c.transformer &&
            (c.type === 'varchar' || c.type === 'text' || c.type === 'int');
          return {
            property: own ? c.propertyName : undefined,
            name: c.databaseName,
            hydrate: plain ? undefined : (v: unknown) => driver.prepareHydratedValue(v, c),
            column: c,
          };
        }),
      };
    }
    return this.shortColumns;
  }

  /**
   * A short of the own list's page from its raw row: each column as getMany hydrates it (the
   * driver's dates, flags and transformers: pageColumns), the owner and team as their joins give
   * them (only what the answer shows: the owner's id and name, the team's name), or the own
   * space's `owner` and no team.
   */
  private hydrateShortRow(
    row: Record<string, unknown>,
    owner: { id: string; username: string } | undefined,
  ): ShortEntity {
    const s = {} as ShortEntity;
    for (const { property, name, hydrate, column } of this.pageColumns().columns) {
      const value = hydrate ? hydrate(row[name]) : row[name];
      if (property !== undefined) (s as unknown as Record<string, unknown>)[property] = value;
      else column.setEntityValue(s, value);
    }
    if (owner) {
      s.owner = owner as UserEntity;
      s.team = null;
      return s;
    }
    s.owner =
      row.owner_ref === null || row.owner_ref === undefined
        ? null
        : ({ id: row.owner_ref, username: row.owner_username } as UserEntity);
    s.team =
      row.team_name === null || row.team_name === undefined
        ? null
        : ({ id: s.teamId, name: row.team_name } as TeamEntity);
    return s;
  }

  /**
   * Whether a page of the shorts with tags walks the space in its order (the index on the
   * creation time), testing each short's tags by their primary key, until the page is full: when
   * many shorts carry them and the page is in that order. Else the shorts with the tags are read
   * by id and sorted.
   */
  private walksWithTags(count: number, req: PageRequest): boolean {
    return count > TAG_READ_BY_ID_MAX && req.sort[0]?.field === 'createdAt';
  }

  /**
   * How many shorts of the space carry every one of the tags, and the rarest tag: each tag's rows
   * counted over the index (space, tag, short_id); with more than one tag, the shorts in all of
   * their ranges of that index (multiTagCountSql).
   */
  private async taggedCount(space: Space, keys: readonly string[]): Promise<TaggedCount> {
    const engine = engineOf(this.dataSource);
    const tagSpace = spaceKeyOf(space);
    // One count per tag, each a range of the index (a GROUP BY over `tag IN (…)` took SQLite twice
    // as long: 3.8 against 1.8 ms for two tags of 10,000 shorts).
    const [counts]: Array<Record<string, number | string>> = await this.repo.manager.query(
      dialectSql(
        engine,
        `SELECT ${keys
          .map((_, i) => `(SELECT COUNT(*) FROM short_tags WHERE space = ? AND tag = ?) AS n${i}`)
          .join(', ')}`,
      ),
      keys.flatMap((k) => [tagSpace, k]),
    );
    const each = keys.map((tag, i) => ({ tag, n: Number(counts[`n${i}`]) }));
    if (each.some((e) => e.n === 0)) return { count: 0, rarest: keys[0] };
    const [rarest] = [...each].sort((a, b) => a.n - b.n);
    if (keys.length === 1) return { count: rarest.n, rarest: rarest.tag };
    const others = keys.filter((k) => k !== rarest.tag);
    const [row]: Array<{ n: number | string }> = await this.repo.manager.query(
      dialectSql(engine, multiTagCountSql(engine, others.length)),
      multiTagCountParams(tagSpace, rarest.tag, others),
    );
    return { count: Number(row.n), rarest: rarest.tag };
  }

  /**
   * The tags of a space's shorts with how many carry each, most used first (ties by tag key), at
   * most `limit`, each in one of its spellings (that of the short first in id order). Counted over
   * the index (space, tag, short_id) alone; on SQLite (whose statements hold the event loop) a
   * slice of TAG_COUNT_SLICE rows at a time, with a turn of the event loop between slices.
   */
  async tagCounts(space: Space, limit: number): Promise<Array<{ tag: string; count: number }>> {
    const engine = engineOf(this.dataSource);
    const tagSpace = spaceKeyOf(space);
    const query = <T>(text: string, params: unknown[]): Promise<T[]> =>
      this.repo.manager.query(dialectSql(engine, text), params);
    if (engine !== 'sqlite') {
      const found = await query<{ label: string; n: number | string }>(
        `SELECT (SELECT x.label FROM short_tags x WHERE x.space = ? AND x.tag = c.tag ORDER BY x.short_id LIMIT 1) AS label, c.n AS n
         FROM (SELECT tag, COUNT(*) AS n FROM short_tags WHERE space = ? GROUP BY tag ORDER BY n DESC, tag ASC LIMIT ${Number(limit)}) c
         ORDER BY c.n DESC, c.tag ASC`,
        [tagSpace, tagSpace],
      );
      return found.map((r) => ({ tag: r.label, count: Number(r.n) }));
    }
    const counts = new Map<string, number>();
    let after: { tag: string; short_id: string } | undefined;
    for (;;) {
      const from = after ? ' AND (tag, short_id) > (?, ?)' : '';
      const fromParams = after ? [after.tag, after.short_id] : [];
      const [last] = await query<{ tag: string; short_id: string }>(
        `SELECT tag, short_id FROM short_tags WHERE space = ?${from} ORDER BY tag, short_id LIMIT 1 OFFSET ${TAG_COUNT_SLICE - 1}`,
        [tagSpace, ...fromParams],
      );
      const slice = await query<{ tag: string; n: number }>(
        `SELECT tag, COUNT(*) AS n FROM short_tags WHERE space = ?${from}${last ? ' AND (tag, short_id) <= (?, ?)' : ''} GROUP BY tag`,
        [tagSpace, ...fromParams, ...(last ? [last.tag, last.short_id] : [])],
      );
      for (const r of slice) counts.set(r.tag, (counts.get(r.tag) ?? 0) + Number(r.n));
      if (!last) break;
      after = last;
      await nextTurn();
    }
    const top = [...counts]
      .sort(([a, n], [b, m]) => m - n || (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, limit);
    const answer: Array<{ tag: string; count: number }> = [];
    for (let i = 0; i < top.length; i += TAG_LABELS_PER_QUERY) {
      const part = top.slice(i, i + TAG_LABELS_PER_QUERY);
      const [labels] = await query<Record<string, string>>(
        `SELECT ${part
          .map(
            (_, j) =>
              `(SELECT label FROM short_tags WHERE space = ? AND tag = ? ORDER BY short_id LIMIT 1) AS l${j}`,
          )
          .join(', ')}`,
        part.flatMap(([tag]) => [tagSpace, tag]),
      );
      part.forEach(([tag, count], j) => answer.push({ tag: labels[`l${j}`] ?? tag, count }));
    }
    return answer;
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

/**
 * Keeps the shorts of the space that carry every one of the tags (`keys`), read from short_tags
 * (conditions and their `?` parameters appended to `where` and `params`): by id (`byId`), the
 * shorts of the rarest tag's range of the index (space, tag, short_id) that carry the others too;
 * else, for a walk of the space, one test per tag of each short (the primary key short_id, tag).
 */
function taggedFilter(
  where: string[],
  params: unknown[],
  space: Space,
  keys: readonly string[],
  rarest: string,
  byId: boolean,
  engine: Engine,
): void {
  const others = keys.filter((k) => k !== rarest);
  if (byId) {
    const also = others
      .map(
        (_, i) =>
          ` AND EXISTS (SELECT 1 FROM short_tags t${i} WHERE t${i}.short_id = r.short_id AND t${i}.tag = ?)`,
      )
      .join('');
    where.push(
      `s.id IN (SELECT r.short_id FROM short_tags r WHERE r.space = ? AND r.tag = ?${also})`,
    );
    params.push(spaceKeyOf(space), rarest, ...others);
    return;
  }
  // PostgreSQL turns each EXISTS into a semi-join and, taking the tags for independent (two tags
  // on 10 % of the shorts each: 8 rows expected, where the bench's 9,000 carry both), merged every
  // short of the space with both tags' rows and sorted them: 330 ms a page beside a million
  // anonymous shorts. `OFFSET 0` keeps each EXISTS a test of the walked row by the primary key
  // (short_id, tag), the walk the other engines do: 3-5 ms for the bench's first ten pages.
  const walk = engine === 'postgres' ? ' OFFSET 0' : '';
  [...others, rarest].forEach((tag, i) => {
    where.push(
      `EXISTS (SELECT 1 FROM short_tags t${i} WHERE t${i}.short_id = s.id AND t${i}.tag = ?${walk})`,
    );
    params.push(tag);
  });
}

/**
 * The ids of a page of the space's shorts that carry every tag of `keys`, in the order of their
 * creation (the list's `createdAt` with the tie by the id in the same direction): the rarest tag's
 * range of the index (space, tag, created_at, short_id), whose `created_at` is the short's own,
 * walked in the page's direction, each entry's other tags tested by the primary key (short_id,
 * tag). A page of the newest shorts with one tag reads its 20 index entries (after the offset's);
 * the walk of the space's index by time tested each walked short's tags instead (MariaDB's
 * page 10 of the bench's tag: 2,217 tests, 9-21 ms of the server's time). PostgreSQL's `OFFSET 0`
 * keeps each test a test (taggedFilter). The page's size and offset are parameters, so the texts
 * are one per number of tags and direction (PostgreSQL names each text once: listOwn).
 */
function tagIndexWalk(
  space: string,
  keys: readonly string[],
  rarest: string,
  req: PageRequest,
  engine: Engine,
): { sql: string; params: unknown[] } {
  const others = keys.filter((k) => k !== rarest);
  const test = engine === 'postgres' ? ' OFFSET 0' : '';
  const also = others
    .map(
      (_, i) =>
        ` AND EXISTS (SELECT 1 FROM short_tags t${i} WHERE t${i}.short_id = r.short_id AND t${i}.tag = ?${test})`,
    )
    .join('');
  const dir = req.sort[0].direction;
  return {
    sql: `SELECT r.short_id AS id FROM short_tags r WHERE r.space = ? AND r.tag = ?${also}
      ORDER BY r.created_at ${dir}, r.short_id ${dir} LIMIT ? OFFSET ?`,
    params: [space, rarest, ...others, Number(req.size), Number(req.offset)],
  };
}

/**
 * The SQL of a column of the own list's sort (the controller's allow-list): a property of the
 * short (`s.createdAt`) by its column's name, an expression (the visits) as it is.
 */
function sortSql(column: string): string {
  let sql = sortSqlOf.get(column);
  if (sql === undefined) {
    const property = /^s\.(\w+)$/.exec(column)?.[1];
    sql = property === undefined ? column : `s.${sqlColumnOf(property)}`;
    // The allow-list's columns and the one visits expression: a handful of entries.
    if (sortSqlOf.size < 100) sortSqlOf.set(column, sql);
  }
  return sql;
}
const sortSqlOf = new Map<string, string>();

/**
 * The count of a space's shorts that carry the rarest tag and `others` more: the tags' ranges of
 * the index (space, tag, short_id) intersected. SQLite merges them (a compound SELECT with ORDER BY
 * reads each range in short_id order): 3 ms for two ranges of 10,000 rows, against 21 ms for a
 * primary-key test of each of the rarest range's rows for the others. PostgreSQL and MariaDB
 * intersect by a hash (INTERSECT needs MariaDB 10.3 or MySQL 8.0.31). The plan cannot go wrong on a table the planner knows little of (a new
 * server's): PostgreSQL joined an EXISTS that named the space by a nested loop over both ranges
 * (2,100 tagged shorts: 890 ms), and MariaDB's EXISTS took 1.3 s on one table and 46 ms on another.
 */
function multiTagCountSql(engine: Engine, others: number): string {
  const range = 'SELECT short_id FROM short_tags WHERE space = ? AND tag = ?';
  const ranges = Array.from({ length: others + 1 }, () => range).join(' INTERSECT ');
  return `SELECT COUNT(*) AS n FROM (${ranges}${engine === 'sqlite' ? ' ORDER BY 1' : ''}) x`;
}

/** The parameters of multiTagCountSql. */
function multiTagCountParams(space: string, rarest: string, others: readonly string[]): string[] {
  return [rarest, ...others].flatMap((tag) => [space, tag]);
}
