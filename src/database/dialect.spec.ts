import { describe, expect, it } from 'vitest';
import { dialectSql, engineOf } from './dialect';

describe('dialect', () => {
  it('numbers parameters for PostgreSQL only', () => {
    const sql = 'UPDATE t SET a = a + ? WHERE id = ? AND (b IS NULL OR a < b)';
    expect(dialectSql('postgres', sql)).toBe(
      'UPDATE t SET a = a + $1 WHERE id = $2 AND (b IS NULL OR a < b)',
    );
    expect(dialectSql('mysql', sql)).toBe(sql);
    expect(dialectSql('sqlite', sql)).toBe(sql);
  });

  it('names the engine of a data source', () => {
    expect(engineOf({ options: { type: 'mariadb' } } as never)).toBe('mysql');
    expect(engineOf({ options: { type: 'mysql' } } as never)).toBe('mysql');
    expect(engineOf({ options: { type: 'postgres' } } as never)).toBe('postgres');
    expect(engineOf({ options: { type: 'better-sqlite3' } } as never)).toBe('sqlite');
  });
});
