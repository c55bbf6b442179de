/**
 * The connection options of a SQLite file: the app's connection (dataSourceOptions) and the
 * statistics writer's own (StatsWriterThread) open it alike. A module of its own, so that the
 * writer's thread loads no migrations.
 */
export function sqliteOptions(file: string, timeoutMs: number) {
  return {
    type: 'better-sqlite3' as const,
    database: file,
    timeout: timeoutMs,
    enableWAL: true,
    prepareDatabase: (db: { pragma(sql: string): unknown }) => {
      // A locked database (another process writing) fails after DB_TIMEOUT_MS with SQLITE_BUSY (503).
      db.pragma(`busy_timeout = ${timeoutMs}`);
      db.pragma('foreign_keys = ON');
      db.pragma('synchronous = NORMAL');
    },
  };
}
