import type { DataSource } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { EntityMetadata } from 'typeorm/metadata/EntityMetadata';
import { dialectSql, engineOf } from './dialect';

/** A plain INSERT of every column of an entity's table (made once, for hot or bulk writes). */
export interface PlainInsert {
  /** The columns in the statement's order (each once: a relation's join column shares its own). */
  columns: ColumnMetadata[];
  /** `INSERT INTO table (columns)`, in `?` form. */
  head: string;
  /** The whole statement for `rows` rows, in the engine's parameter form, kept per row count. */
  sql(rows: number): string;
}

/**
 * The INSERT of every column of `metadata`'s table. Its values are converted as TypeORM's builder
 * converts them (`driver.preparePersistentValue(column.getEntityValue(entity), column)`: transformers,
 * SQLite's time text); the builder's SQL generation per insert was a tenth of a create's CPU and
 * built a large insert in one synchronous piece. Callers keep the row counts they ask for few
 * (fixed chunk sizes), as every count's text is kept.
 */
export function plainInsertOf(ds: DataSource, metadata: EntityMetadata): PlainInsert {
  const { driver } = ds;
  const byName = new Map<string, ColumnMetadata>();
  for (const c of metadata.columns) {
    if (!c.isVirtual && !byName.has(c.databaseName)) byName.set(c.databaseName, c);
  }
  const columns = [...byName.values()];
  const names = columns.map((c) => driver.escape(c.databaseName)).join(', ');
  const row = `(${columns.map(() => '?').join(', ')})`;
  const table = driver.escape(metadata.tableName);
  const engine = engineOf(ds);
  const sqls = new Map<number, string>();
  return {
    columns,
    head: `INSERT INTO ${table} (${names})`,
    sql: (rows) => {
      let text = sqls.get(rows);
      if (text === undefined) {
        const values = Array.from({ length: rows }, () => row).join(', ');
        text = dialectSql(engine, `INSERT INTO ${table} (${names}) VALUES ${values}`);
        sqls.set(rows, text);
      }
      return text;
    },
  };
}
