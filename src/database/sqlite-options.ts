/**
 * SQLite's page cache per connection, in KiB. better-sqlite3 is built with a default of 16,000 KiB
 * (SQLITE_DEFAULT_CACHE_SIZE), which a large file fills: after the bench's million shorts the app's
 * connection and the statistics thread's held about 14 MiB more each than with this. The pages
 * come from the operating system's file cache instead (a random lookup among a million shorts took
 * no longer), and in WAL mode a connection drops its cache whenever another one has written (the
 * statistics thread, once a second under load), so a larger one held little for long.
 */
export const SQLITE_CACHE_KIB = 2048;

/**
 * The connection options of a SQLite file: the app's connection (dataSourceOptions) and the
 * statistics writer's own (SqliteBatchSource on its thread) open it alike. A module of its own,
 * so that the writer's thread loads no migrations.
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
      db.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
    },
  };
}
