import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type DataSource, type Repository } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { engineOf, placeholders } from '../database/dialect';
import { isDatabaseUnavailable } from '../database/errors';
import { type PlainInsert, plainInsertOf } from '../database/plain-insert';
import { run, runTx } from '../database/tx';
import { splitTags } from '../shared/tags';
import { DOMAIN_ROW_SQL, domainStillThere, lockDomain } from './domain-lock';
import { tagSpaceOf } from './short-tag.entity';
import { insertTagRows, tagRowsOf } from './short-tags';
import { ShortEntity } from './short.entity';
import { TagCountCache } from './tag-count-cache';

/** A short waiting for the multi-row INSERT of its turn of the event loop. */
interface QueuedInsert {
  params: unknown[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Rows per INSERT of queued creates (20 columns each: far below every engine's parameter limit). */
const INSERT_BATCH = 100;

/**
 * Rows per INSERT of queued creates on SQLite, largest first (37 rows are 32 + 4 + 1): a few
 * statement texts instead of one per row count. TypeORM keeps the last 100 statements a
 * connection prepared, and SQLite's prepared INSERT of n rows of 20 columns holds about n × 2 KB
 * of its memory: with every row count from 1 to 100 in the cache that was up to 11 MiB after the
 * bench's creates, against 0.4 MiB for these (docs/performance.md, "Memory"). MariaDB and
 * PostgreSQL keep no statement per text on the client (TypeORM sends them as text), so there one
 * statement per batch saves round trips.
 */
export const SQLITE_INSERT_CHUNKS = [64, 32, 16, 8, 4, 2, 1];

/**
 * The writes of new shorts: the queued INSERTs of single creates, the multi-row INSERT of an
 * import's rows, the writes onto an own domain, new shorts with tags (with their tag rows, in one
 * transaction), and which custom codes are taken already. Not exported from the module.
 */
@Injectable()
export class ShortInsertRepository {
  private readonly timeoutMs: number;

  constructor(
    @InjectRepository(ShortEntity) private readonly repo: Repository<ShortEntity>,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly tagCounts: TagCountCache,
  ) {
    this.timeoutMs = config.dbTimeoutMs;
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

  private plainInsert?: PlainInsert;
  private toInsert: QueuedInsert[] = [];
  /** Whether queued creates are being written: the creates that come meanwhile wait for them. */
  private writing = false;

  /** The INSERT of every column of `shorts` (plain-insert.ts). */
  private plainInsertOf(): PlainInsert {
    return plainInsertOf(this.dataSource, this.repo.metadata);
  }

  /** Writes the queued shorts, up to INSERT_BATCH per statement. */
  private async insertQueued(): Promise<void> {
    const queued = this.toInsert;
    this.toInsert = [];
    this.writing = true;
    try {
      const writes: Array<Promise<void>> = [];
      if (engineOf(this.dataSource) === 'sqlite') {
        let i = 0;
        for (const size of SQLITE_INSERT_CHUNKS) {
          for (; queued.length - i >= size; i += size) {
            writes.push(this.insertRows(queued.slice(i, i + size)));
          }
        }
      } else {
        for (let i = 0; i < queued.length; i += INSERT_BATCH) {
          writes.push(this.insertRows(queued.slice(i, i + INSERT_BATCH)));
        }
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
      if (!(await lockDomain(m, domain))) return false;
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
   * New shorts with tags: their rows (one multi-row INSERT of every column, as `insert` writes
   * them) and their tag rows (short_tags, in their spaces) in one transaction (runTx: synchronous
   * on SQLite), all or nothing: a taken code throws as `insertMany` does. With `domain` (all on
   * that own domain) only while it is there, verified, as insertOnDomain: its row read with a
   * shared lock on MariaDB and PostgreSQL (exclusive with its delete); on SQLite the transaction
   * holds the write lock from its start. Answers false when the domain is gone (nothing written).
   * Shorts without tags never come here (their paths above are unchanged). The tag counts of their
   * spaces are dropped once the transaction is over (TagCountCache).
   */
  async insertTagged(
    shorts: readonly ShortEntity[],
    domain?: { id: string; host: string },
  ): Promise<boolean> {
    if (shorts.length === 0) return true;
    const insert = (this.plainInsert ??= this.plainInsertOf());
    const driver = this.dataSource.driver;
    const params = shorts.flatMap((s) =>
      insert.columns.map((c) => driver.preparePersistentValue(c.getEntityValue(s) as unknown, c)),
    );
    const row = `(${placeholders(insert.columns.length)})`;
    const sql = `${insert.head} VALUES ${shorts.map(() => row).join(', ')}`;
    const tagRows = shorts.flatMap((s) => {
      const space = tagSpaceOf(s);
      return space === null ? [] : tagRowsOf(s.id, space, splitTags(s.tags));
    });
    try {
      return await runTx(this.dataSource, this.timeoutMs, function* ({ engine }) {
        if (domain && !(yield* domainStillThere(engine, domain))) return false;
        yield run(sql, ...params);
        yield* insertTagRows(tagRows);
        return true;
      });
    } finally {
      // Also after an error: a commit whose answer was lost may have written them.
      this.tagCounts.spacesChanged(tagRows.map((r) => r.space));
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

  /** A statement's count of affected rows (SQLite's one runner: nothing to release). */
  private async structured(sql: string, params: unknown[]): Promise<number | undefined> {
    const runner = this.dataSource.createQueryRunner();
    try {
      return (await runner.query(sql, params, true)).affected;
    } finally {
      await runner.release();
    }
  }
}
