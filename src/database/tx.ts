import type { DataSource, EntityManager } from 'typeorm';
import { dialectSql, engineOf, type Engine } from './dialect';
import { sqliteDatetime } from './sqlite-batch-source';
import { whileBusy } from './sqlite-busy';

/** One statement of a transaction: its rows (`rows`) or its count of changed rows (`run`). */
export interface TxStep {
  kind: 'rows' | 'run';
  sql: string;
  params: unknown[];
}

export type Row = Record<string, unknown>;

/**
 * A transaction written once for every engine, as a generator that yields its statements (written
 * with `?` parameters) and receives each answer: `yield rows(…)` gives the rows, `yield run(…)`
 * the count of rows changed. `lock` is `FOR UPDATE` on MariaDB and PostgreSQL and nothing on
 * SQLite, whose writers take turns.
 */
export type TxBody<T> = (tx: { engine: Engine; lock: string }) => Generator<TxStep, T, unknown>;

export const rows = (sql: string, ...params: unknown[]): TxStep => ({ kind: 'rows', sql, params });
export const run = (sql: string, ...params: unknown[]): TxStep => ({ kind: 'run', sql, params });

/** What runTx needs of the better-sqlite3 connection. */
interface SqliteDb {
  prepare(sql: string): { all(...p: unknown[]): Row[]; run(...p: unknown[]): { changes: number } };
  transaction<F extends () => unknown>(fn: F): { immediate(): ReturnType<F> };
}

function sqliteParam(v: unknown): unknown {
  if (v instanceof Date) return sqliteDatetime(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v;
}

/**
 * Runs `body` as one transaction:
 * - MariaDB and PostgreSQL: READ COMMITTED (a fresh read after each lock is granted; no gap locks),
 *   the body locks what it must with `FOR UPDATE`;
 * - SQLite: better-sqlite3's own transaction, run synchronously from BEGIN IMMEDIATE to COMMIT:
 *   nothing else runs on the app's one connection meanwhile (its connection never holds a
 *   transaction across awaits), and a database another process holds is waited for
 *   asynchronously (whileBusy) before the transaction starts.
 * A body that throws rolls back; a refusal is best returned as a value (nothing written).
 */
export async function runTx<T>(ds: DataSource, timeoutMs: number, body: TxBody<T>): Promise<T> {
  const engine = engineOf(ds);
  if (engine === 'sqlite') {
    const db = (ds.driver as unknown as { databaseConnection: SqliteDb }).databaseConnection;
    const work = db.transaction((): T => {
      const gen = body({ engine, lock: '' });
      let step = gen.next();
      while (!step.done) {
        const s = step.value;
        const statement = db.prepare(s.sql);
        const params = s.params.map(sqliteParam);
        step = gen.next(
          s.kind === 'rows' ? statement.all(...params) : statement.run(...params).changes,
        );
      }
      return step.value;
    });
    return whileBusy(
      async () => work.immediate(),
      () => true,
      timeoutMs,
    );
  }
  return ds.transaction('READ COMMITTED', async (m: EntityManager) => {
    const runner = m.queryRunner;
    if (!runner) throw new Error('runTx: no query runner in the transaction');
    const gen = body({ engine, lock: ' FOR UPDATE' });
    let step = gen.next();
    while (!step.done) {
      const s = step.value;
      const sql = dialectSql(engine, s.sql);
      const answer =
        s.kind === 'rows'
          ? ((await runner.query(sql, s.params)) as Row[])
          : (((await runner.query(sql, s.params, true)) as { affected?: number }).affected ?? 0);
      step = gen.next(answer);
    }
    return step.value;
  });
}
