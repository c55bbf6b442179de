import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import {
  In,
  type DataSource,
  type EntityManager,
  type QueryRunner,
  type Repository,
} from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { hasNul } from '../common/db-limits';
import { containsPattern, type PageRequest } from '../common/paging';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { dbTimeMs } from '../database/columns';
import { dialectSql, engineOf } from '../database/dialect';
import { isDatabaseUnavailable, statementMayHaveRun } from '../database/errors';
import type { HealthFilter } from '../shared/link-health';
import type { HealthRecord } from './short-health';
import { MissBatcher } from '../database/miss-batcher';
import { CODE_MAX_LENGTH } from '../shared/limits';
import {
  type FieldType,
  type FieldsWith,
  fieldsWith,
  SHORT_FIELDS,
  type ShortFieldName,
  type ShortFieldSpec,
} from '../shared/short-fields';
import { ShortEntity, sqlColumnOf } from './short.entity';
import { rulesFromColumn } from './rules-column';
import { addUseCounts } from './use-counts';

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

/** A short waiting for the multi-row INSERT of its turn of the event loop. */
interface QueuedInsert {
  params: unknown[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Rows per INSERT of queued creates (20 columns each: far below every engine's parameter limit). */
const INSERT_BATCH = 100;

/** An own domain's row while it is verified (the write of a short onto it needs it). */
const DOMAIN_ROW_SQL = 'SELECT 1 FROM domains WHERE id = ? AND verified_host = ?';
/** findOwnerOf: the short's id and owner. */
const OWNER_SQL = 'SELECT id, owner_id FROM shorts WHERE id = ?';
/** The ShortEntity properties of the table's fields (`password`: its hash). */
export type FieldColumn = (typeof SHORT_FIELDS)[ShortFieldName]['column'];
/** The ShortEntity properties of the fields the follow engine reads (rows with `followed`). */
type FollowedColumn = (typeof SHORT_FIELDS)[FieldsWith<'followed'>]['column'];

/** How the follow read takes each column's value, by the field's type. */
const FOLLOW_DECODERS: Record<FieldType, (v: unknown) => unknown> = {
  url: (v) => v,
  code: (v) => v,
  text: (v) => v,
  password: (v) => v,
  domain: (v) => v,
  integer: (v) => (v === null ? null : Number(v)),
  'date-time': (v) => (v === null ? null : new Date(dbTimeMs(v))),
  rules: (v) => rulesFromColumn(v as string | null),
};

/**
 * The columns of a short that the follow path needs, in the order followRowOf reads them: its id,
 * uses and danger flag, then every field with `followed` (SQL names from the entity's columns).
 */
const FOLLOW_READS: ReadonlyArray<readonly [keyof FollowRow, string, (v: unknown) => unknown]> = [
  ['id', 'id', (v) => v],
  ['uses', 'uses', (v) => Number(v)],
  ['dangerous', 'dangerous', (v) => v === true || Number(v) === 1],
  ...fieldsWith('followed').map((name) => {
    const spec: ShortFieldSpec = SHORT_FIELDS[name];
    return [
      spec.column as FollowedColumn,
      sqlColumnOf(spec.column),
      FOLLOW_DECODERS[spec.type],
    ] as const;
  }),
];
const FOLLOW_COLUMN_NAMES = FOLLOW_READS.map(([, column]) => column);
const FOLLOW_COLUMNS = FOLLOW_COLUMN_NAMES.join(', ');
/** A short as the follow path needs it, by its domain and code. */
const FOLLOW_SQL = `SELECT ${FOLLOW_COLUMNS} FROM shorts WHERE domain = ? AND code = ?`;
/** Shorts as the follow path needs them, by domain and codes (MissBatcher: `codes` placeholders). */
const followManySql = (codes: number) =>
  `SELECT code, ${FOLLOW_COLUMNS} FROM shorts WHERE domain = ? AND code IN (${Array.from({ length: codes }, () => '?').join(', ')})`;
const USE_LEFT_SQL =
  'SELECT 1 AS one FROM shorts WHERE id = ? AND (max_uses IS NULL OR uses < max_uses)';
/** The one atomic use claim: succeeds at most max_uses times in total, under any concurrency. */
const CLAIM_USE_SQL =
  'UPDATE shorts SET uses = uses + 1 WHERE id = ? AND (max_uses IS NULL OR uses < max_uses)';

/** Codes per SELECT of a batch of follow reads (MissBatcher). */
const FOLLOW_BATCH_CODES = 150;
/** Batches of follow reads under way at most: a few of the pool's 20 connections. */
const FOLLOW_BATCHES_IN_FLIGHT = 2;

/** What the follow read uses of better-sqlite3 (the connection TypeORM holds). */
interface SqliteStatement {
  raw(on: boolean): SqliteStatement;
  get(...params: unknown[]): unknown[] | undefined;
}
interface SqliteDatabase {
  prepare(text: string): SqliteStatement;
}

/**
 * A follow row from its columns' values in FOLLOW_COLUMN_NAMES' order: better-sqlite3's raw rows
 * as they are, a driver's row objects through followValues.
 */
function followRowOf(v: readonly unknown[]): FollowRow {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < FOLLOW_READS.length; i++) {
    const read = FOLLOW_READS[i];
    row[read[0]] = read[2](v[i]);
  }
  return row as FollowRow;
}

/** A driver's row object as followRowOf's values. */
function followValues(r: Record<string, unknown>): unknown[] {
  return FOLLOW_COLUMN_NAMES.map((c) => r[c]);
}

/**
 * A use claim whose statement may have run although its answer was lost (the connection broke or
 * went silent while it was under way). The follow answers 503 as for any outage, never a redirect:
 * a use may be spent that no visitor got (fail closed), never the other way round.
 */
export class ClaimOutcomeUnknownError extends Error {
  constructor(override readonly cause: unknown) {
    super('The outcome of a use claim is unknown');
    this.name = 'ClaimOutcomeUnknownError';
  }
}

/** What the follow engine reads of a short: its id, uses and flag, the `followed` fields. */
export type FollowRow = Pick<ShortEntity, 'id' | 'uses' | 'dangerous' | FollowedColumn>;

/** Fields that the owner's services may change in place. */
export type ShortChanges = Partial<
  Pick<ShortEntity, FieldColumn | 'dangerous' | 'dangerReason' | keyof HealthRecord>
>;

/**
 * The queries on `shorts`. Only the code module writes this table (ShortService, the follow
 * engine and the cleanup job, through this repository); other modules go through ShortService.
 * Not exported from the module.
 */
@Injectable()
export class ShortRepository {
  private readonly claimSql: string;
  private readonly followSql: string;
  private readonly ownerSql: string;
  private readonly useLeftSql: string;

  /** MariaDB and PostgreSQL: the follow reads of concurrent cache misses, a statement per batch. */
  private readonly followBatcher: MissBatcher<FollowRow> | null;
  /** SQLite: the follow read's statement, prepared once on the connection it was prepared on. */
  private sqliteFollow?: { db: SqliteDatabase; statement: SqliteStatement };

  constructor(
    @InjectRepository(ShortEntity) private readonly repo: Repository<ShortEntity>,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const engine = engineOf(repo.manager.connection);
    this.claimSql = dialectSql(engine, CLAIM_USE_SQL);
    this.followSql = dialectSql(engine, FOLLOW_SQL);
    this.ownerSql = dialectSql(engine, OWNER_SQL);
    this.useLeftSql = dialectSql(engine, USE_LEFT_SQL);
    this.followBatcher =
      engine === 'sqlite'
        ? null
        : new MissBatcher(this.readFollowRows, {
            maxCodes: FOLLOW_BATCH_CODES,
            maxInFlight: FOLLOW_BATCHES_IN_FLIGHT,
            maxWaitMs: config.dbTimeoutMs,
          });
  }

  get dataSource(): DataSource {
    return this.repo.manager.connection;
  }

  /**
   * A new short of every column's value: a copy into the entity class, what `repo.create` makes of
   * them (without its walk over the entity's metadata: a percent of a create's CPU).
   */
  create(fields: ShortEntity): ShortEntity {
    return Object.assign(new ShortEntity(), fields);
  }

  /**
   * A new short, every column set by the caller: a plain INSERT of every column, its SQL made once
   * (the query builder's SQL generation per row was a tenth of a create's CPU), the values
   * converted as the builder converts them (`preparePersistentValue`: transformers, SQLite's time
   * text), without the SELECT that TypeORM would add to read generated values back. The creates
   * of one turn of the event loop go as one multi-row INSERT (one statement and one commit instead
   * of one per create: about half of the database's work per create); while such a write is under
   * way, the creates that come meanwhile wait for it and go together in the next one (about 25
   * instead of 15 rows per INSERT at 50 connections). When that fails for another reason than an
   * unavailable database (a taken code, a deleted owner), each is written alone, so each create
   * gets its own outcome. A short with a column left unset goes through the builder.
   */
  async insert(s: ShortEntity): Promise<void> {
    const insert = (this.plainInsert ??= this.plainInsertOf());
    const values = insert.columns.map((c) => c.getEntityValue(s) as unknown);
    if (values.includes(undefined)) return this.insertMany([s]);
    const driver = this.dataSource.driver;
    const params = values.map((v, i) => driver.preparePersistentValue(v, insert.columns[i]));
    return new Promise<void>((resolve, reject) => {
      this.toInsert.push({ params, resolve, reject });
      if (this.toInsert.length === 1 && !this.writing) setImmediate(() => void this.insertQueued());
    });
  }

  private plainInsert?: {
    columns: ColumnMetadata[];
    head: string;
    sql: (rows: number) => string;
  };
  private toInsert: QueuedInsert[] = [];
  /** Whether queued creates are being written: the creates that come meanwhile wait for them. */
  private writing = false;

  /** The INSERT of every column of `shorts` for `rows` rows, in the engine's parameter form. */
  private plainInsertOf(): NonNullable<typeof this.plainInsert> {
    const { driver } = this.dataSource;
    const byName = new Map<string, ColumnMetadata>();
    for (const c of this.repo.metadata.columns) {
      if (!c.isVirtual && !byName.has(c.databaseName)) byName.set(c.databaseName, c);
    }
    const columns = [...byName.values()];
    const names = columns.map((c) => driver.escape(c.databaseName)).join(', ');
    const row = `(${columns.map(() => '?').join(', ')})`;
    const table = driver.escape(this.repo.metadata.tableName);
    const engine = engineOf(this.dataSource);
    const sqls = new Map<number, string>();
    const sql = (rows: number) => {
      let text = sqls.get(rows);
      if (text === undefined) {
        const values = Array.from({ length: rows }, () => row).join(', ');
        text = dialectSql(engine, `INSERT INTO ${table} (${names}) VALUES ${values}`);
        sqls.set(rows, text);
      }
      return text;
    };
    return { columns, head: `INSERT INTO ${table} (${names})`, sql };
  }

  /** Writes the queued shorts, up to INSERT_BATCH per statement. */
  private async insertQueued(): Promise<void> {
    const queued = this.toInsert;
    this.toInsert = [];
    this.writing = true;
    try {
      const writes: Array<Promise<void>> = [];
      for (let i = 0; i < queued.length; i += INSERT_BATCH) {
        writes.push(this.insertRows(queued.slice(i, i + INSERT_BATCH)));
      }
      await Promise.all(writes);
    } finally {
      this.writing = false;
      if (this.toInsert.length) setImmediate(() => void this.insertQueued());
    }
  }

  private async insertRows(rows: readonly QueuedInsert[]): Promise<void> {
    const { sql } = this.plainInsert!;
    const one = async (row: QueuedInsert) => {
      try {
        await this.repo.manager.query(sql(1), row.params);
        row.resolve();
      } catch (err) {
        row.reject(err);
      }
    };
    if (rows.length === 1) return one(rows[0]);
    try {
      await this.repo.manager.query(
        sql(rows.length),
        rows.flatMap((r) => r.params),
      );
    } catch (err) {
      if (isDatabaseUnavailable(err)) {
        for (const row of rows) row.reject(err);
        return;
      }
      for (const row of rows) await one(row);
      return;
    }
    for (const row of rows) row.resolve();
  }

  /** New shorts in one multi-row INSERT: all are written or none (a unique violation fails all). */
  async insertMany(shorts: readonly ShortEntity[]): Promise<void> {
    if (shorts.length === 0) return;
    await this.repo
      .createQueryBuilder()
      .insert()
      .values(shorts as ShortEntity[])
      .updateEntity(false)
      .execute();
  }

  /**
   * Writes new shorts onto an own domain only while that domain is there, verified (CONTRACT
   * "Hardening": a short is never left on a deleted domain). Exclusive with the domain's delete
   * (DomainService.delete, which locks the domain's row, looks for shorts on it and deletes it in
   * one transaction):
   * - MariaDB and PostgreSQL: one READ COMMITTED transaction that reads the domain's row with a
   *   shared lock (`LOCK IN SHARE MODE` / `FOR SHARE`), then inserts. While a delete holds the
   *   row, this waits for its commit and then finds no row (nothing is written); a delete that
   *   comes after the lock waits for this commit and then finds the short.
   * - SQLite (one writer; its one connection must not hold a transaction across awaits): one
   *   statement, `INSERT … SELECT … WHERE EXISTS (the domain)`, one short at a time.
   * Answers false when the domain is gone (nothing written); a taken code throws as `insert` does.
   * Shorts on this service's own host never come here (their create path is unchanged).
   */
  async insertOnDomain(
    shorts: readonly ShortEntity[],
    domain: { id: string; host: string },
  ): Promise<boolean> {
    if (shorts.length === 0) return true;
    const engine = engineOf(this.dataSource);
    if (engine === 'sqlite') {
      for (const s of shorts) {
        const insert = (this.plainInsert ??= this.plainInsertOf());
        const driver = this.dataSource.driver;
        const params = insert.columns.map((c) =>
          driver.preparePersistentValue(c.getEntityValue(s) as unknown, c),
        );
        const affected = await this.structured(
          `${insert.head} SELECT ${insert.columns.map(() => '?').join(', ')} WHERE EXISTS (${DOMAIN_ROW_SQL})`,
          [...params, domain.id, domain.host],
        );
        if (affected !== 1) return false;
      }
      return true;
    }
    return this.dataSource.transaction('READ COMMITTED', async (m) => {
      if (!(await this.lockDomain(m, domain))) return false;
      await m
        .createQueryBuilder()
        .insert()
        .into(ShortEntity)
        .values(shorts as ShortEntity[])
        .updateEntity(false)
        .execute();
      return true;
    });
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
      if (!(await this.lockDomain(m, domain))) return false;
      if (Object.keys(changes).length) await m.update(ShortEntity, { id }, changes);
      return true;
    });
  }

  /** Reads the domain's row with a shared lock inside `m`'s transaction: whether it is there. */
  private async lockDomain(
    m: EntityManager,
    domain: { id: string; host: string },
  ): Promise<boolean> {
    const engine = engineOf(this.dataSource);
    const lock = engine === 'mysql' ? 'LOCK IN SHARE MODE' : 'FOR SHARE';
    const rows = (await m.query(dialectSql(engine, `${DOMAIN_ROW_SQL} ${lock}`), [
      domain.id,
      domain.host,
    ])) as unknown[];
    return rows.length > 0;
  }

  /** A statement's count of affected rows (SQLite's one runner: nothing to release). */
  private async structured(sql: string, params: unknown[]): Promise<number | undefined> {
    const runner = this.dataSource.createQueryRunner();
    try {
      return (await runner.query(sql, params, true)).affected;
    } finally {
      await runner.release();
    }
  }

  /** Which of `codes` are taken on `domain` (case-sensitive, as the unique index compares them). */
  async existingCodes(domain: string, codes: readonly string[]): Promise<Set<string>> {
    if (codes.length === 0) return new Set();
    const rows = await this.repo.find({
      where: { domain, code: In(codes as string[]) },
      select: { code: true },
    });
    return new Set(rows.map((r) => r.code));
  }

  /**
   * What a follow needs of a short, by code (a cache miss of the follow path; the query builder and
   * entity hydration cost more than the lookup). MariaDB and PostgreSQL: concurrent misses go
   * together, one SELECT … IN per batch (MissBatcher: one round trip for many follows). SQLite:
   * one statement prepared once and run straight through better-sqlite3 (TypeORM's query runner
   * cost more than the read), answered at once, without a promise; should that fail (a busy
   * database), through TypeORM, which retries (sqlite-busy.ts). A code outside the codes'
   * alphabet (isStorableCode: a trailing space, a NUL, which PostgreSQL refuses) matches nothing,
   * without a query.
   */
  findForFollow(domain: string, code: string): FollowRow | null | Promise<FollowRow | null> {
    if (!isStorableCode(code) || hasNul(domain)) return null;
    if (this.followBatcher) return this.followBatcher.get(domain, code);
    let raw: unknown[] | undefined;
    try {
      raw = this.sqliteFollowStatement().get(domain, code);
    } catch {
      return this.queryForFollow(domain, code); // TypeORM's path: its retry, its errors
    }
    return raw === undefined ? null : followRowOf(raw);
  }

  /** The follow read through TypeORM (SQLite's fallback). */
  private async queryForFollow(domain: string, code: string): Promise<FollowRow | null> {
    const rows = (await this.repo.manager.query(this.followSql, [domain, code])) as Array<
      Record<string, unknown>
    >;
    return rows.length ? followRowOf(followValues(rows[0])) : null;
  }

  private sqliteFollowStatement(): SqliteStatement {
    const db = (this.dataSource.driver as unknown as { databaseConnection: SqliteDatabase })
      .databaseConnection;
    if (this.sqliteFollow?.db !== db) {
      this.sqliteFollow = { db, statement: db.prepare(FOLLOW_SQL).raw(true) };
    }
    return this.sqliteFollow.statement;
  }

  /** MissBatcher's read: the follow rows of `codes` on `domain`, each with its code as stored. */
  private readonly readFollowRows = async (
    domain: string,
    codes: readonly string[],
  ): Promise<Array<[string, FollowRow]>> => {
    let sql = this.followManySql.get(codes.length);
    if (sql === undefined) {
      sql = dialectSql(engineOf(this.dataSource), followManySql(codes.length));
      this.followManySql.set(codes.length, sql);
    }
    const rows = (await this.repo.manager.query(sql, [domain, ...codes])) as Array<
      Record<string, unknown> & { code: string }
    >;
    return rows.map((r) => [r.code, followRowOf(followValues(r))]);
  };

  /** followManySql in the engine's parameter form, by number of codes. */
  private readonly followManySql = new Map<number, string>();

  /** A short by its code on `domain` (exactly as written: see isStorableCode), with its owner. */
  findByCodeWithOwner(code: string, domain = ''): Promise<ShortEntity | null> {
    if (!isStorableCode(code) || hasNul(domain)) return Promise.resolve(null);
    return this.repo.findOne({ where: { domain, code }, relations: { owner: true } });
  }

  findByIdWithOwner(id: string): Promise<ShortEntity | null> {
    return this.repo.findOne({ where: { id }, relations: { owner: true } });
  }

  /** The short `id` and its owner only (an ownership check: one lean statement), or null. */
  async findOwnerOf(id: string): Promise<Pick<ShortEntity, 'id' | 'ownerId'> | null> {
    const rows: Array<{ id: string; owner_id: string | null }> = await this.repo.manager.query(
      this.ownerSql,
      [id],
    );
    const r = rows[0];
    return r ? { id: r.id, ownerId: r.owner_id ?? null } : null;
  }

  findIdentity(
    id: string,
  ): Promise<Pick<ShortEntity, 'id' | 'code' | 'domain' | 'ownerId' | 'dangerous'> | null> {
    return this.repo.findOne({
      where: { id },
      select: { id: true, code: true, domain: true, ownerId: true, dangerous: true },
    });
  }

  /**
   * One conditional UPDATE (plain SQL: the query builder's SQL generation was the largest cost).
   * Throws ClaimOutcomeUnknownError when the database became unavailable while the statement may
   * have run (see statementMayHaveRun); any other failure means no use was claimed.
   */
  async claimUse(id: string): Promise<boolean> {
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.connect(); // a failure here: nothing was sent
      try {
        const res = (await runner.query(this.claimSql, [id], true)) as { affected?: number };
        return res.affected === 1;
      } catch (err) {
        if (isDatabaseUnavailable(err) && statementMayHaveRun(err)) {
          throw new ClaimOutcomeUnknownError(err);
        }
        throw err;
      }
    } finally {
      await runner.release();
    }
  }

  /** Whether the short exists and has a use left (a bot's preview of a limited short). */
  async hasUseLeft(id: string): Promise<boolean> {
    const rows = (await this.repo.manager.query(this.useLeftSql, [id])) as unknown[];
    return rows.length > 0;
  }

  /** Adds buffered use counts inside a batch transaction (see addUseCounts). */
  addUses(runner: QueryRunner, counts: ReadonlyMap<string, number>): Promise<void> {
    return addUseCounts(runner, engineOf(this.dataSource), counts);
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

  /** The owner's shorts after `afterId` in id order, `limit` at a time (keyset paging for exports). */
  pageOwnedAfter(ownerId: string, afterId: string | null, limit: number): Promise<ShortEntity[]> {
    const qb = this.repo
      .createQueryBuilder('s')
      .where('s.owner_id = :ownerId', { ownerId })
      .orderBy('s.id', 'ASC')
      .limit(limit);
    if (afterId !== null) qb.andWhere('s.id > :afterId', { afterId });
    return qb.getMany();
  }

  identitiesOwnedBy(ownerId: string): Promise<Array<Pick<ShortEntity, 'id' | 'code' | 'domain'>>> {
    return this.repo.find({ where: { ownerId }, select: { id: true, code: true, domain: true } });
  }

  async deleteOwnedBy(ownerId: string): Promise<void> {
    await this.repo.delete({ ownerId });
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
    ownerId: string,
    req: PageRequest,
    { search, domain, health }: OwnFilter = {},
  ): Promise<[ShortEntity[], number]> {
    const qb = this.repo
      .createQueryBuilder('s')
      .leftJoinAndSelect('s.owner', 'owner')
      .where('s.owner_id = :ownerId', { ownerId });
    if (domain !== undefined) qb.andWhere('s.domain = :domain', { domain });
    if (health === 'broken') qb.andWhere("s.health_state = 'broken'");
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

  /** Every short and the sum of their uses, in one query (the start page's live figures). */
  async totals(): Promise<{ shorts: number; uses: number }> {
    const row = await this.repo
      .createQueryBuilder('s')
      .select('COUNT(*)', 'shorts')
      .addSelect('COALESCE(SUM(s.uses), 0)', 'uses')
      .getRawOne<{ shorts: number | string; uses: number | string }>();
    return { shorts: Number(row?.shorts ?? 0), uses: Number(row?.uses ?? 0) };
  }

  /** Which of `ids` exist (500 per query: every engine's parameter limit allows that). */
  async existingIds(ids: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const rows = await this.repo.find({ where: { id: In(chunk) }, select: { id: true } });
      for (const r of rows) found.add(r.id);
    }
    return found;
  }
}

/**
 * Filters of the own list: a search text, one domain ('' for this service's host), the broken
 * ones (link health).
 */
export interface OwnFilter {
  search?: string;
  domain?: string;
  health?: HealthFilter;
}
