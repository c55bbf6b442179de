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
