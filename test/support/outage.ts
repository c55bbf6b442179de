import Database from 'better-sqlite3';
import {
  createTestDatabase,
  TEST_DB_KIND,
  testDatabaseServer,
  type TestDatabase,
} from './database';
import { TcpProxy } from './tcp-proxy';

/**
 * A database the test can take away from the app and give back, whichever engine the leg runs:
 * - MariaDB and PostgreSQL are reached through a TcpProxy: `cut` refuses and cuts connections,
 *   `partition` keeps them open but silent;
 * - SQLite has no network: `cut` (and `partition`) hold an exclusive write lock from a second
 *   connection, so the app's writes wait DB_TIMEOUT_MS and fail busy, as a second process would.
 */
export class DatabaseOutage {
  private proxy: TcpProxy | null = null;
  private db: TestDatabase | null = null;
  private lock: Database.Database | null = null;
  /** Environment for createTestApp (DB_URL through the proxy, or DB_FILE). */
  env: Record<string, string> = {};

  readonly kind = TEST_DB_KIND;

  async setup(): Promise<Record<string, string>> {
    this.db = await createTestDatabase();
    if (TEST_DB_KIND !== 'sqlite') {
      const server = testDatabaseServer();
      this.proxy = new TcpProxy(server.host, server.port);
      const port = await this.proxy.start();
      const url = new URL(this.db.env.DB_URL);
      url.port = String(port);
      this.env = { DB_URL: url.toString() };
    } else {
      this.env = { ...this.db.env };
    }
    return this.env;
  }

  async cut(): Promise<void> {
    if (this.proxy) await this.proxy.stop();
    else this.holdLock();
  }

  async restore(): Promise<void> {
    if (this.proxy) await this.proxy.start();
    else this.releaseLock();
  }

  /**
   * Connections stay open but nothing passes (MariaDB, PostgreSQL), or with 'answers' only the
   * server's answers are lost; SQLite: the same lock as cut().
   */
  partition(what: 'both' | 'answers' = 'both'): void {
    if (this.proxy) this.proxy.partition(what);
    else this.holdLock();
  }

  heal(): void {
    if (this.proxy) this.proxy.heal();
    else this.releaseLock();
  }

  private holdLock(): void {
    if (this.lock) return;
    this.lock = new Database(this.env.DB_FILE, { timeout: 5000 });
    this.lock.exec('BEGIN EXCLUSIVE');
  }

  private releaseLock(): void {
    if (!this.lock) return;
    this.lock.exec('ROLLBACK');
    this.lock.close();
    this.lock = null;
  }

  async teardown(): Promise<void> {
    this.releaseLock();
    await this.proxy?.stop();
    await this.db?.drop();
  }
}
