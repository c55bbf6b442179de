import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { AppConfig } from '../config/config';
import type { MysqlConnection } from '../config/variables';

/** What a backup did: a SQLite copy written, or the dump command for a database server. */
export interface BackupResult {
  engine: 'sqlite' | 'mysql' | 'postgres';
  /** The backup file (absolute). */
  file?: string;
  /** Size of the SQLite copy. */
  bytes?: number;
  /** How long the SQLite copy took, integrity check included. */
  durationMs?: number;
  /** MariaDB/MySQL and PostgreSQL: the dump command to run (never with the password). */
  command?: string;
}

export interface BackupOptions {
  /** Replace an existing FILE (atomically). Without it an existing FILE is refused. */
  overwrite?: boolean;
}

/** A refusal or failure of the backup, with one line of message. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

/**
 * Pages copied per step of SQLite's online backup (1 MiB with 4 KiB pages); between steps the
 * event loop runs. better-sqlite3's default is 100.
 */
export const BACKUP_STEP_PAGES = 256;

/**
 * Backs up the configured database to `file`.
 *
 * SQLite: a consistent copy written while the app serves, with SQLite's online backup on a
 * connection of its own (see `backupSqlite`); the copy must pass `PRAGMA integrity_check` before it
 * is moved onto `file`. MariaDB/MySQL and PostgreSQL: nothing is written; the answer's `command` is
 * the `mysqldump` or `pg_dump` call that writes `file` (the tool asks for the password).
 *
 * Every refusal and failure is an Error with one line of message.
 */
export async function backupDatabase(
  config: AppConfig,
  file: string,
  options: BackupOptions = {},
): Promise<BackupResult> {
  if (!file || !file.trim()) throw new BackupError('No backup file given');
  const target = resolve(file);
  const db = config.db;
  if (db.type === 'mysql' || db.type === 'postgres') {
    const connection = db.type === 'mysql' ? db.mysql : db.postgres;
    if (!connection) throw new BackupError('DB_URL is not a valid database URL');
    return { engine: db.type, file: target, command: dumpCommand(db.type, connection, target) };
  }
  return backupSqlite(db.file, target, config.dbTimeoutMs, options.overwrite === true);
}

/**
 * The one line that tells an operator what a backup did: where the copy is, or the dump command to
 * run (printed alone, so that it can be copied or piped to a shell).
 */
export function describeBackup(result: BackupResult): string {
  if (result.command) return result.command;
  const mib = ((result.bytes ?? 0) / 1024 / 1024).toFixed(1);
  return `Backup written to ${result.file} (${mib} MiB in ${result.durationMs} ms, integrity check ok)`;
}

/** Characters a POSIX shell reads literally in a word. */
const SHELL_SAFE = /^[A-Za-z0-9_./:@%+=,-]+$/;

/** `value` as one word for a POSIX shell: single-quoted unless every character is plain. */
export function shellQuote(value: string): string {
  if (SHELL_SAFE.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The dump command for a database server, built from DB_URL's host, port, user and database. The
 * password never appears: when DB_URL has one, `--password` makes the tool ask for it (unattended
 * runs put it in MYSQL_PWD / PGPASSWORD or an option file instead).
 */
export function dumpCommand(
  engine: 'mysql' | 'postgres',
  connection: MysqlConnection,
  file: string,
): string {
  const option = (name: string, value: string | number) => `--${name}=${shellQuote(String(value))}`;
  const password = connection.password ? ['--password'] : [];
  const words =
    engine === 'mysql'
      ? [
          'mysqldump',
          '--single-transaction',
          '--quick',
          '--no-tablespaces',
          '--default-character-set=utf8mb4',
          option('host', connection.host),
          option('port', connection.port),
          option('user', connection.username),
          ...password,
          option('result-file', file),
          shellQuote(connection.database),
        ]
      : [
          'pg_dump',
          option('host', connection.host),
          option('port', connection.port),
          option('username', connection.username),
          ...password,
          option('dbname', connection.database),
          '--no-owner',
          option('file', file),
        ];
  return words.join(' ');
}

/** The files of a SQLite database besides the main one. */
const SIDE_FILES = ['-wal', '-shm', '-journal'];

function sameFile(a: string, b: string): boolean {
  try {
    const sa = statSync(a);
    const sb = statSync(b);
    return sa.dev === sb.dev && sa.ino === sb.ino;
  } catch {
    return false;
  }
}

/** The refusals of a SQLite backup, checked before anything is opened or written. */
function checkSqliteTarget(source: string, target: string, overwrite: boolean): void {
  for (const suffix of ['', ...SIDE_FILES]) {
    if (target === source + suffix || sameFile(target, source + suffix)) {
      throw new BackupError(`Refusing to write the backup onto the database's own file ${target}`);
    }
  }
  const dir = dirname(target);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new BackupError(`The backup's folder does not exist: ${dir}`);
  }
  if (existsSync(target)) {
    if (statSync(target).isDirectory()) throw new BackupError(`${target} is a folder, not a file`);
    if (!overwrite) {
      throw new BackupError(
        `${target} already exists (choose another name, or --overwrite to replace it)`,
      );
    }
  }
  if (!existsSync(source)) throw new BackupError(`There is no SQLite database at ${source}`);
}

function removeCopy(temp: string): void {
  for (const suffix of ['', ...SIDE_FILES]) rmSync(temp + suffix, { force: true });
}

/** Makes a rename in `dir` durable (best effort: not every file system syncs a folder). */
function syncFolder(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // The copy itself is synced; only the rename may be lost on a power cut here.
  }
}

/**
 * The online backup of a SQLite file that an app may be writing (in this process or another).
 *
 * The copy runs on a connection of its own in steps of BACKUP_STEP_PAGES with the event loop free
 * between them. That connection holds one read transaction around all steps: SQLite's backup then
 * copies that one snapshot (every commit made before the backup began, nothing half-written)
 * instead of starting over whenever another connection commits, which under a steady stream of
 * creates it would do for ever. In WAL mode (the app's) a reader blocks no writer, so the app's
 * creates and follows go on; the WAL only grows until the backup ends. A file in another journal
 * mode (no app has opened it) is copied in one step, so that its shared lock is held briefly.
 *
 * The copy is written to a temporary file beside `target` (mode 0600: it holds sessions and the
 * encrypted API keys), switched to a single file (journal_mode DELETE: no -wal to carry along),
 * checked with `PRAGMA integrity_check`, and then linked (or, with `overwrite`, renamed) onto
 * `target` in one step: `target` is either absent or a whole, checked copy.
 */
export async function backupSqlite(
  dbFile: string,
  target: string,
  timeoutMs: number,
  overwrite = false,
): Promise<BackupResult> {
  const started = Date.now();
  const source = resolve(dbFile);
  try {
    checkSqliteTarget(source, target, overwrite);
  } catch (err) {
    throw asBackupError(err);
  }
  const temp = join(
    dirname(target),
    `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    writeFileSync(temp, '', { mode: 0o600, flag: 'wx' });
  } catch (err) {
    throw asBackupError(err);
  }
  try {
    await copySnapshot(source, temp, timeoutMs);
    checkCopy(temp);
    if (overwrite) {
      renameSync(temp, target);
    } else {
      try {
        linkSync(temp, target);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
          throw new BackupError(
            `${target} already exists (choose another name, or --overwrite to replace it)`,
          );
        }
        throw err;
      }
      rmSync(temp);
    }
    syncFolder(dirname(target));
  } catch (err) {
    removeCopy(temp);
    throw asBackupError(err);
  }
  return {
    engine: 'sqlite',
    file: target,
    bytes: statSync(target).size,
    durationMs: Date.now() - started,
  };
}

/** Our own errors as they are; any other (a file system error) as one line under "Backup failed". */
function asBackupError(err: unknown): BackupError {
  return err instanceof BackupError
    ? err
    : new BackupError(oneLine('Cannot write the backup', err));
}

function oneLine(what: string, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return `${what}: ${message.split('\n')[0]}`;
}

async function copySnapshot(source: string, temp: string, timeoutMs: number): Promise<void> {
  let db: Database.Database;
  try {
    db = new Database(source, { fileMustExist: true, timeout: timeoutMs });
  } catch (err) {
    throw new BackupError(oneLine(`Cannot open the database ${source}`, err));
  }
  try {
    // This connection only reads: the backup needs no write of its own.
    db.pragma('query_only = ON');
    const wal = db.pragma('journal_mode', { simple: true }) === 'wal';
    db.exec('BEGIN');
    // The first read starts the read transaction: the snapshot the backup copies.
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    const step = wal ? BACKUP_STEP_PAGES : 0x7fffffff;
    await db.backup(temp, { progress: () => step });
  } catch (err) {
    throw new BackupError(oneLine(`Cannot back up the database ${source}`, err));
  } finally {
    // Ends the read transaction (it wrote nothing) with the connection.
    db.close();
  }
}

/** The copy as one self-contained file that passes SQLite's integrity check, or an Error. */
function checkCopy(temp: string): void {
  const copy = new Database(temp, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    let result: string[];
    try {
      const rows = copy.pragma('integrity_check') as Array<{ integrity_check: string }>;
      result = rows.map((r) => r.integrity_check);
    } catch (err) {
      // A copy too broken to be checked (SQLITE_CORRUPT) fails the check too.
      result = [err instanceof Error ? err.message : String(err)];
    }
    if (result.length !== 1 || result[0] !== 'ok') {
      throw new BackupError(
        `The copy failed PRAGMA integrity_check: ${result.slice(0, 3).join('; ')}`,
      );
    }
  } finally {
    copy.close();
  }
}
