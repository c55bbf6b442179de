import type { DataSourceOptions } from 'typeorm';

/** The database engines the app runs on. */
export type Engine = 'sqlite' | 'mysql' | 'postgres';

/** What engineOf reads: a TypeORM DataSource, or another connection that names its driver type. */
export interface EngineSource {
  readonly options: { readonly type: DataSourceOptions['type'] };
}

/** Which engine a data source talks to (TypeORM's driver type). */
export function engineOf(ds: EngineSource): Engine {
  const type = ds.options.type;
  if (type === 'mysql' || type === 'mariadb') return 'mysql';
  if (type === 'postgres') return 'postgres';
  return 'sqlite';
}

/**
 * Raw SQL written with `?` parameters, in the engine's own form: PostgreSQL numbers them ($1, $2,
 * …); SQLite and MySQL keep `?`. Only for SQL without `?` inside string literals (ours never has).
 * Prefer TypeORM's query builder, which does this itself; raw SQL is for the few statements where
 * the builder's overhead shows on the hot path or it has no portable form.
 */
export function dialectSql(engine: Engine, text: string): string {
  if (engine !== 'postgres') return text;
  let i = 0;
  return text.replace(/\?/g, () => `$${++i}`);
}

/** `n` parameters: `?, ?, ?`. */
export function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

/** `(a, b) VALUES (?, ?), (?, ?)`: the columns and a tuple of parameters per row. */
function valuesOf(columns: readonly string[], rows: number): string {
  const tuple = `(${placeholders(columns.length)})`;
  return `(${columns.join(', ')}) VALUES ${Array.from({ length: rows }, () => tuple).join(', ')}`;
}

/**
 * `INSERT INTO table {rows}` that skips the rows whose key (`conflict`, a primary key or unique
 * index) is stored already: MySQL's `INSERT IGNORE`, SQLite's `INSERT OR IGNORE`, PostgreSQL's `ON
 * CONFLICT … DO NOTHING`. `rows` names the columns and gives the rows: `(a, b) VALUES …` or `(a, b)
 * SELECT …`.
 */
export function insertIgnoringFrom(
  engine: Engine,
  table: string,
  rows: string,
  conflict: readonly string[],
): string {
  if (engine === 'mysql') return `INSERT IGNORE INTO ${table} ${rows}`;
  if (engine === 'sqlite') return `INSERT OR IGNORE INTO ${table} ${rows}`;
  return `INSERT INTO ${table} ${rows} ON CONFLICT (${conflict.join(', ')}) DO NOTHING`;
}

/** A multi-row INSERT of `rows` rows of `?` parameters that skips stored keys (insertIgnoringFrom). */
export function insertIgnoring(
  engine: Engine,
  table: string,
  columns: readonly string[],
  conflict: readonly string[],
  rows = 1,
): string {
  return insertIgnoringFrom(engine, table, valuesOf(columns, rows), conflict);
}

/**
 * A multi-row upsert (`rows` rows of `?` parameters) that adds the `adds` columns of a row whose key
 * (`conflict`) is stored already to the stored counts: MySQL's `ON DUPLICATE KEY UPDATE c = c +
 * VALUES(c)`, SQLite's and PostgreSQL's `ON CONFLICT (…) DO UPDATE SET c = table.c + excluded.c`.
 */
export function upsertAdding(
  engine: Engine,
  table: string,
  columns: readonly string[],
  conflict: readonly string[],
  adds: readonly string[],
  rows: number,
): string {
  const insert = `INSERT INTO ${table} ${valuesOf(columns, rows)}`;
  if (engine === 'mysql') {
    return `${insert} ON DUPLICATE KEY UPDATE ${adds.map((c) => `${c} = ${c} + VALUES(${c})`).join(', ')}`;
  }
  return `${insert} ON CONFLICT (${conflict.join(', ')}) DO UPDATE SET ${adds
    .map((c) => `${c} = ${table}.${c} + excluded.${c}`)
    .join(', ')}`;
}

/**
 * PostgreSQL: rows passed as one array parameter per column instead of one parameter per value,
 * `INSERT INTO table (…) SELECT * FROM unnest($1::text[], $2::int[], …)`. A statement is then the
 * same text whatever number of rows it carries, and a few parameters instead of thousands: on the
 * statistics writer's batches of first follows, 2,000 parameters a statement cost the app (pg's
 * encoding of each) and the server (parsing, planning a VALUES list of hundreds of rows) more
 * than the rows' writing (docs/performance.md, "PostgreSQL's statistics batches"). `types` are the
 * arrays' element types, one per column (`text` for any character column: the insert casts).
 */
export function pgInsertArrays(
  table: string,
  columns: readonly string[],
  types: readonly string[],
): string {
  const arrays = types.map((t, i) => `$${i + 1}::${t}[]`).join(', ');
  return `INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${arrays})`;
}

/** pgInsertArrays that adds the `adds` columns of a row whose key is stored to its counts. */
export function pgUpsertAddingArrays(
  table: string,
  columns: readonly string[],
  types: readonly string[],
  conflict: readonly string[],
  adds: readonly string[],
): string {
  return `${pgInsertArrays(table, columns, types)} ON CONFLICT (${conflict.join(', ')}) DO UPDATE SET ${adds
    .map((c) => `${c} = ${table}.${c} + excluded.${c}`)
    .join(', ')}`;
}

/** pgInsertArrays that skips the rows whose key is stored already. */
export function pgInsertIgnoringArrays(
  table: string,
  columns: readonly string[],
  types: readonly string[],
  conflict: readonly string[],
): string {
  return `${pgInsertArrays(table, columns, types)} ON CONFLICT (${conflict.join(', ')}) DO NOTHING`;
}

/** Rows as one array per column (the parameters of pgInsertArrays). */
export function columnArrays(rows: readonly (readonly unknown[])[], columns: number): unknown[][] {
  const arrays = Array.from({ length: columns }, () => new Array<unknown>(rows.length));
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    for (let c = 0; c < columns; c++) arrays[c][r] = row[c];
  }
  return arrays;
}

/**
 * A statement's rows folded by the database into one JSON array of arrays (the `columns` of each
 * row in order), as text in a column `j`: SQLite's json_group_array, PostgreSQL's json_agg (no
 * rows: `[]` or NULL). Undefined on MySQL/MariaDB, whose JSON_ARRAYAGG is cut at group_concat_max_len: read
 * the rows as they are there.
 */
export function jsonRowsOf(
  engine: Engine,
  columns: readonly string[],
  text: string,
): string | undefined {
  if (engine === 'sqlite') {
    return `SELECT json_group_array(json_array(${columns.join(', ')})) AS j FROM (${text})`;
  }
  if (engine === 'postgres') {
    // As text, parsed by the caller when it uses the rows: pg would parse a json column as it reads
    // the answer, and its rows would wait as objects through the query's promise and its
    // continuations, where a scavenge found them alive and promoted them (docs/performance.md).
    return `SELECT json_agg(json_build_array(${columns.join(', ')}))::text AS j FROM (${text}) AS r`;
  }
  return undefined;
}

/** Whether a MySQL-protocol server of this `VERSION()` answers `INSERT … RETURNING` (MariaDB from 10.5). */
export function mysqlReturns(version: string): boolean {
  const [major, minor] = version.split('.').map(Number);
  return /mariadb/i.test(version) && (major > 10 || (major === 10 && minor >= 5));
}
