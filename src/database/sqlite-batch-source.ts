import Database from 'better-sqlite3';
import {
  type BatchRunner,
  type BatchSource,
  batchQuery,
  type StructuredResult,
} from './apply-once';
import { SQLITE_BUSY_SPIN_MS, whileBusy } from './sqlite-busy';
import { sqliteOptions } from './sqlite-options';

/**
 * Prepared statements kept per connection, the least recently used dropped first. StatsWriter's
 * multi-row statements come in a few row counts on SQLite (SQLITE_CHUNKS): 5 sizes of 6 kinds, the
 * transaction's own and the salt's, and room for the use counts' `IN` lists, which vary. One of
 * 500 rows takes about 250 KB of SQLite's memory; a dropped one is freed only when V8 collects
 * its object.
 */
export const STATEMENT_CACHE = 64;

/** A date as TypeORM writes it into a SQLite `datetime` column (UTC, milliseconds). */
export function sqliteDatetime(date: Date): string {
  return date.toISOString().slice(0, 23).replace('T', ' ');
}

/**
 * A SQLite file's connection on better-sqlite3 alone, with the calls of TypeORM's query runner that
 * applyOnce and StatsWriter make: the statistics thread's (stats-thread.ts), which thus loads no
 * TypeORM (docs/performance.md, "Memory"). Opened as TypeORM opens the app's (sqliteOptions, WAL,
 * foreign keys) and with the app's busy handling (sqlite-busy.ts): SQLite waits SQLITE_BUSY_SPIN_MS
 * at most, a transaction starts with `BEGIN IMMEDIATE`, and only that and statements outside a
 * transaction are retried while the database is busy, for `timeoutMs` in all.
 *
 * One connection, one runner (as TypeORM's on SQLite): applyOnce gives batches their turns.
 */
export class SqliteBatchSource implements BatchSource<SqliteBatchRunner> {
  /** As a TypeORM DataSource's, for engineOf. */
  readonly options = { type: 'better-sqlite3' as const };
  private readonly db: Database.Database;
  private readonly runner: SqliteBatchRunner;

  constructor(file: string, timeoutMs: number) {
    const { prepareDatabase } = sqliteOptions(file, timeoutMs);
    this.db = new Database(file, { timeout: timeoutMs, fileMustExist: true });
    try {
      prepareDatabase(this.db);
      this.db.pragma('foreign_keys = ON');
      this.db.pragma('journal_mode = WAL');
      this.db.pragma(`busy_timeout = ${SQLITE_BUSY_SPIN_MS}`);
    } catch (err) {
      this.db.close();
      throw err;
    }
    this.runner = new SqliteBatchRunner(this.db, timeoutMs);
  }

  createQueryRunner(): SqliteBatchRunner {
    return this.runner;
  }

  /** The rows of a statement outside any transaction (a read). */
  async query(sql: string, parameters: unknown[] = []): Promise<Array<Record<string, unknown>>> {
    return (await this.runner.query(sql, parameters, true)).records;
  }

  close(): void {
    this.db.close();
  }
}

export class SqliteBatchRunner implements BatchRunner {
  /** A plain field: applyOnce resets it after a BEGIN that failed, as on TypeORM's runner. */
  isTransactionActive = false;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly timeoutMs: number,
  ) {}

  async connect(): Promise<void> {}

  async release(): Promise<void> {}

  async startTransaction(): Promise<void> {
    if (this.isTransactionActive) throw new Error('A transaction is already under way');
    // The write lock up front: no statement inside waits for it or fails half-way for it.
    await whileBusy(
      () => this.run('BEGIN IMMEDIATE TRANSACTION', []),
      () => true,
      this.timeoutMs,
    );
    this.isTransactionActive = true;
  }

  async commitTransaction(): Promise<void> {
    if (!this.isTransactionActive) throw new Error('No transaction is under way');
    try {
      await this.run('COMMIT', []);
    } catch (err) {
      // Not committed, still open (a full disk, an I/O error): ended here, so that the next batch
      // does not run inside it. applyOnce retries the batch with its id.
      if (this.db.inTransaction) await this.run('ROLLBACK', []).catch(() => undefined);
      throw err;
    } finally {
      this.isTransactionActive = this.db.inTransaction;
    }
  }

  async rollbackTransaction(): Promise<void> {
    if (!this.isTransactionActive) throw new Error('No transaction is under way');
    this.isTransactionActive = false;
    // SQLite may have rolled back by itself already (some errors end the transaction).
    if (this.db.inTransaction) await this.run('ROLLBACK', []);
  }

  async insertBatchId(id: string, appliedAt: Date): Promise<void> {
    await this.run('INSERT INTO applied_batches (id, applied_at) VALUES (?, ?)', [
      id,
      sqliteDatetime(appliedAt),
    ]);
  }

  /** Retried while the database is busy, outside a transaction (inside, BEGIN IMMEDIATE waited). */
  readonly query = batchQuery((sql, parameters) =>
    whileBusy(
      () => this.run(sql, parameters),
      () => !this.db.inTransaction,
      this.timeoutMs,
    ),
  );

  /** One statement, as TypeORM's better-sqlite3 runner answers it (rows, or changes). */
  private async run(sql: string, parameters: unknown[]): Promise<StructuredResult> {
    const statement = this.prepared(sql);
    // better-sqlite3 binds no booleans (TypeORM turns them into 0 and 1 as well).
    const values = parameters.map((p) => (typeof p === 'boolean' ? Number(p) : p));
    if (statement.reader) {
      const rows = statement.all(...values) as Array<Record<string, unknown>>;
      return { records: rows, raw: rows };
    }
    const { changes, lastInsertRowid } = statement.run(...values);
    return { records: [], affected: changes, raw: lastInsertRowid };
  }

  private prepared(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (statement) {
      this.statements.delete(sql); // to the end: used last
    } else {
      statement = this.db.prepare(sql);
      if (this.statements.size >= STATEMENT_CACHE) {
        this.statements.delete(this.statements.keys().next().value as string);
      }
    }
    this.statements.set(sql, statement);
    return statement;
  }
}
