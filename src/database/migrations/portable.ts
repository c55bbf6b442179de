import type { TableColumnOptions } from 'typeorm';
import type { QueryRunner } from 'typeorm';
import { type Engine, engineOf } from '../dialect';

/**
 * Column types that mean the same on every engine, for migrations written with the schema builder:
 * - `datetime()`: millisecond UTC times (`DATETIME(3)`; PostgreSQL `timestamptz(3)`, so the driver
 *   reads instants whatever the server's time zone);
 * - `bool(default)`: 0/1 (`TINYINT`; PostgreSQL `smallint`, so `= 0`/`= 1` comparisons work alike);
 * - `caseSensitive`: binary collation for codes and other case-sensitive keys on MySQL (SQLite and
 *   PostgreSQL compare case-sensitively by default).
 */
export function portable(q: QueryRunner): {
  engine: Engine;
  datetime(): Pick<TableColumnOptions, 'type' | 'precision'>;
  bool(def: 0 | 1): Pick<TableColumnOptions, 'type' | 'default' | 'isNullable'>;
  caseSensitive: Pick<TableColumnOptions, 'charset' | 'collation'>;
} {
  const engine = engineOf(q.connection);
  return {
    engine,
    datetime: () => ({ type: engine === 'postgres' ? 'timestamptz' : 'datetime', precision: 3 }),
    bool: (def) => ({
      type: engine === 'postgres' ? 'smallint' : 'tinyint',
      default: def,
      isNullable: false,
    }),
    caseSensitive: engine === 'mysql' ? { charset: 'utf8mb4', collation: 'utf8mb4_bin' } : {},
  };
}
