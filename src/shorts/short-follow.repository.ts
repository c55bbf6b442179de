import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type DataSource, type QueryRunner, type Repository } from 'typeorm';
import { hasNul } from '../common/db-limits';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { dbTimeMs } from '../database/columns';
import { dialectSql, engineOf, type Engine, placeholders } from '../database/dialect';
import { isDatabaseUnavailable, statementMayHaveRun } from '../database/errors';
import { MissBatcher } from '../database/miss-batcher';
import {
  type FieldType,
  type FieldsWith,
  fieldsWith,
  SHORT_FIELDS,
  type ShortFieldSpec,
} from '../shared/short-fields';
import { ShortEntity, sqlColumnOf } from './short.entity';
import { isStorableCode } from './short.repository';
import { rulesFromColumn } from './rules-column';
import { previewFromColumn } from '../shared/social-preview';
import { addUseCounts } from './use-counts';

/** The ShortEntity properties of the fields the follow engine reads (rows with `followed`). */
type FollowedColumn = (typeof SHORT_FIELDS)[FieldsWith<'followed'>]['column'];

/** How the follow read takes each column's value, by the field's type. */
const FOLLOW_DECODERS: Record<FieldType, (v: unknown) => unknown> = {
  url: (v) => v,
  code: (v) => v,
  text: (v) => v,
  password: (v) => v,
  domain: (v) => v,
  team: (v) => v,
  integer: (v) => (v === null ? null : Number(v)),
  'date-time': (v) => (v === null ? null : new Date(dbTimeMs(v))),
  rules: (v) => rulesFromColumn(v as string | null),
  // Never read: the follow path has no use for tags (their row has no `followed`).
  tags: (v) => v,
  // NULL for shorts without one (answered before any parsing: the follow stays as cheap).
  preview: (v) => (v === null || v === undefined ? null : previewFromColumn(v)),
  // Never read either: the QR endpoints read the short themselves.
  'qr-style': (v) => v,
};

/**
 * The columns of a short that the follow path needs, in the order followRowOf reads them: its id,
 * uses, danger flag and space, then every field with `followed` (SQL names from the entity's
 * columns).
 */
const FOLLOW_READS: ReadonlyArray<readonly [keyof FollowRow, string, (v: unknown) => unknown]> = [
  ['id', 'id', (v) => v],
  ['uses', 'uses', (v) => Number(v)],
  ['dangerous', 'dangerous', (v) => v === true || Number(v) === 1],
  // Its space (a short of nobody's has no webhooks: its visits are not kept for `short.followed`).
  ['ownerId', 'owner_id', (v) => v ?? null],
  ['teamId', 'team_id', (v) => v ?? null],
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
/** MariaDB's batched follow read (MissBatcher), by number of codes (`IN` with a parameter each). */
const followManySql = (codes: number) =>
  `SELECT code, ${FOLLOW_COLUMNS} FROM shorts WHERE domain = ? AND code IN (${placeholders(codes)})`;
/** followManySql by number of codes, each text built once. */
const followManySqlByLength = new Map<number, string>();
/**
 * PostgreSQL's batched follow read: the codes as one array parameter, each looked up on its own by
 * the unique index (domain, code), as the point read of a single code is. One statement text for
 * any number of codes, and a plan that does not depend on the planner's statistics: with
 * `code IN (…)` (or `= ANY`) on a table whose statistics are older than its rows (a bulk load that
 * autovacuum has not analyzed yet), PostgreSQL 15 chose to read every row of the domain and filter
 * them (about 25 ms a statement at 100,000 shorts, against 1 ms). The subquery's LIMIT 1 keeps the
 * planner from turning the lateral lookup into a join (which it then planned as a hash join over
 * the whole domain); the index is unique, so it drops no row.
 */
const FOLLOW_MANY_SQL_PG = `SELECT s.* FROM unnest($2::text[]) AS c(code), LATERAL (SELECT code, ${FOLLOW_COLUMNS} FROM shorts WHERE domain = $1 AND shorts.code = c.code LIMIT 1) AS s`;

/**
 * The statement and parameters of the follow read of `codes` on `domain`, as the engine's follow
 * path sends it: MariaDB's and PostgreSQL's batch of misses (MissBatcher; rows with their `code`),
 * SQLite's read of one code (`codes[0]`: it reads each on its own, without `code`).
 */
export function followReadQuery(
  engine: Engine,
  domain: string,
  codes: readonly string[],
): [string, unknown[]] {
  if (engine === 'sqlite') return [FOLLOW_SQL, [domain, codes[0]]];
  if (engine === 'postgres') return [FOLLOW_MANY_SQL_PG, [domain, codes]]; // pg sends a JS array as an array
  let sql = followManySqlByLength.get(codes.length);
  if (sql === undefined) {
    sql = followManySql(codes.length);
    followManySqlByLength.set(codes.length, sql);
  }
  return [sql, [domain, ...codes]];
}

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

/** What the follow engine reads of a short: its id, uses, flag and space, the `followed` fields. */
export type FollowRow = Pick<
  ShortEntity,
  'id' | 'uses' | 'dangerous' | 'ownerId' | 'teamId' | FollowedColumn
>;

/**
 * The follow path's queries on `shorts` (what FollowStore needs): the read of a short by code, the
 * use claim, whether a use is left, the buffered use counts and which of the followed shorts still
 * exist (the statistics' batch drops the deleted ones). Not exported from the module.
 */
@Injectable()
export class ShortFollowRepository {
  private readonly claimSql: string;
  private readonly followSql: string;
  private readonly useLeftSql: string;
  private readonly engine: Engine;

  /** MariaDB and PostgreSQL: the follow reads of concurrent cache misses, a statement per batch. */
  private readonly followBatcher: MissBatcher<FollowRow> | null;
  /** SQLite: the follow read's statement, prepared once on the connection it was prepared on. */
  private sqliteFollow?: { db: SqliteDatabase; statement: SqliteStatement };

  constructor(
    @InjectRepository(ShortEntity) private readonly repo: Repository<ShortEntity>,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const engine = engineOf(repo.manager.connection);
    this.engine = engine;
    this.claimSql = dialectSql(engine, CLAIM_USE_SQL);
    this.followSql = dialectSql(engine, FOLLOW_SQL);
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
    const [sql, params] = followReadQuery(this.engine, domain, codes);
    const rows = (await this.repo.manager.query(sql, params)) as Array<
      Record<string, unknown> & { code: string }
    >;
    return rows.map((r) => [r.code, followRowOf(followValues(r))]);
  };

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
