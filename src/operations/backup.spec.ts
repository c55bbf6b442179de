import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config';
import { backupDatabase, describeBackup, dumpCommand, shellQuote } from './backup';

const SECRET = 'test-secret-'.padEnd(40, 'x');

/** What a POSIX shell makes of `words`: each word it passes on it passes on. */
function shellWords(words: string): string[] {
  return execFileSync('sh', ['-c', `printf '%s\\0' ${words}`], { encoding: 'utf8' })
    .split('\0')
    .slice(0, -1);
}

describe('shellQuote', () => {
  it.each([
    'plain',
    'a b',
    "o'brien",
    '$(rm -rf ~)',
    '`id`',
    'semi;colon&amp|pipe',
    'star*?[x]',
    '"double"',
    "back\\slash'",
    'new\nline',
    'ümlaut',
  ])('passes %j to a shell as one word, unchanged', (value) => {
    expect(shellWords(shellQuote(value))).toEqual([value]);
  });

  it('leaves plain words unquoted', () => {
    expect(shellQuote('/var/backups/url-shorter.sql')).toBe('/var/backups/url-shorter.sql');
    expect(shellQuote('db.example:5432')).toBe('db.example:5432');
  });
});

describe('the dump command of a database server', () => {
  const password = `s3cr'et $(x) "p"`;
  const url = (scheme: string, user: string) =>
    `${scheme}://${user}:${encodeURIComponent(password)}@db.example:3310/url%20shorter`;

  it('builds mysqldump from DB_URL and asks for the password instead of printing it', async () => {
    const config = loadConfig({ APP_SECRET: SECRET, DB_URL: url('mysql', 'bob') });
    const result = await backupDatabase(config, '/backups/url shorter.sql');
    expect(result.engine).toBe('mysql');
    expect(result.file).toBe('/backups/url shorter.sql');
    const command = result.command as string;
    expect(command).not.toContain(password);
    expect(command).not.toContain(encodeURIComponent(password));
    expect(command).not.toContain('s3cr');
    expect(shellWords(command)).toEqual([
      'mysqldump',
      '--single-transaction',
      '--quick',
      '--no-tablespaces',
      '--default-character-set=utf8mb4',
      '--host=db.example',
      '--port=3310',
      '--user=bob',
      '--password',
      '--result-file=/backups/url shorter.sql',
      'url shorter',
    ]);
    expect(describeBackup(result)).toBe(command);
  });

  it('builds pg_dump from DB_URL and asks for the password instead of printing it', async () => {
    const config = loadConfig({ APP_SECRET: SECRET, DB_URL: url('postgres', "o'brien") });
    const result = await backupDatabase(config, "/backups/it's.sql");
    expect(result.engine).toBe('postgres');
    const command = result.command as string;
    expect(command).not.toContain('s3cr');
    expect(shellWords(command)).toEqual([
      'pg_dump',
      '--host=db.example',
      '--port=3310',
      "--username=o'brien",
      '--password',
      '--dbname=url shorter',
      '--no-owner',
      "--file=/backups/it's.sql",
    ]);
  });

  it('asks for no password when DB_URL has none, and fills in the default port and user', () => {
    const mysql = loadConfig({ APP_SECRET: SECRET, DB_URL: 'mariadb://127.0.0.1/shorts' });
    expect(dumpCommand('mysql', mysql.db.mysql!, '/b/x.sql')).toBe(
      'mysqldump --single-transaction --quick --no-tablespaces --default-character-set=utf8mb4 ' +
        '--host=127.0.0.1 --port=3306 --user=root --result-file=/b/x.sql shorts',
    );
    const pg = loadConfig({ APP_SECRET: SECRET, DB_URL: 'postgresql://[::1]/shorts' });
    expect(dumpCommand('postgres', pg.db.postgres!, '/b/x.sql')).toBe(
      'pg_dump --host=::1 --port=5432 --username=postgres --dbname=shorts --no-owner --file=/b/x.sql',
    );
  });

  it('writes nothing for a database server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'backup-spec-'));
    try {
      const config = loadConfig({ APP_SECRET: SECRET, DB_URL: 'mysql://root@127.0.0.1/db' });
      await backupDatabase(config, join(dir, 'dump.sql'));
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the SQLite backup', () => {
  let dir: string;
  let dbFile: string;
  const config = () => loadConfig({ APP_SECRET: SECRET, DB_FILE: dbFile });

  /** A database as the app leaves it: WAL mode, some rows, an index. */
  function makeDatabase(rows = 8000): void {
    const db = new Database(dbFile);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE shorts (code TEXT PRIMARY KEY, url TEXT NOT NULL)');
    db.exec('CREATE INDEX shorts_url ON shorts (url)');
    const insert = db.prepare('INSERT INTO shorts VALUES (?, ?)');
    db.transaction(() => {
      for (let i = 0; i < rows; i++)
        insert.run(`c${i}`, `https://example.com/${i}`.padEnd(200, 'x'));
    })();
    db.close();
  }

  const count = (file: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare('SELECT count(*) AS n FROM shorts').get() as { n: number }).n;
    } finally {
      db.close();
    }
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'backup-spec-'));
    dbFile = join(dir, 'url-shorter.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a checked, self-contained copy (mode 0600) while another connection writes', async () => {
    makeDatabase();
    const writer = new Database(dbFile);
    const insert = writer.prepare('INSERT INTO shorts VALUES (?, ?)');
    let n = 0;
    // Commits between the backup's steps: the copy is the snapshot of its start, never restarted.
    const timer = setInterval(() => insert.run(`during${n++}`, 'https://example.com/d'), 0);
    const target = join(dir, 'backup.db');
    try {
      const result = await backupDatabase(config(), target);
      expect(result).toMatchObject({ engine: 'sqlite', file: target });
      expect(result.bytes).toBe(statSync(target).size);
      expect(result.durationMs).toBeGreaterThanOrEqual(0);
      expect(describeBackup(result)).toMatch(
        /^Backup written to .*backup\.db \(\d+\.\d MiB in \d+ ms/,
      );
    } finally {
      clearInterval(timer);
      writer.close();
    }
    expect(statSync(target).mode & 0o777).toBe(0o600);
    const copy = new Database(target, { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
    copy.close();
    expect(count(target)).toBeGreaterThanOrEqual(8000);
    // Only the database's files and the copy: no temporary file, no -wal of the copy.
    expect(readdirSync(dir).filter((f) => f.startsWith('backup') || f.startsWith('.'))).toEqual([
      'backup.db',
    ]);
  });

  it('replaces an existing file only with overwrite', async () => {
    makeDatabase(10);
    const target = join(dir, 'backup.db');
    writeFileSync(target, 'an older backup');
    await expect(backupDatabase(config(), target)).rejects.toThrow(
      `${target} already exists (choose another name, or --overwrite to replace it)`,
    );
    expect(statSync(target).size).toBe('an older backup'.length);
    await backupDatabase(config(), target, { overwrite: true });
    expect(count(target)).toBe(10);
  });

  it.each(['', '-wal', '-shm', '-journal'])(
    'refuses to write onto the database file itself (%j)',
    async (suffix) => {
      makeDatabase(10);
      await expect(backupDatabase(config(), dbFile + suffix, { overwrite: true })).rejects.toThrow(
        `Refusing to write the backup onto the database's own file ${dbFile + suffix}`,
      );
      expect(count(dbFile)).toBe(10);
    },
  );

  it('refuses a link to the database file', async () => {
    makeDatabase(10);
    const link = join(dir, 'link.db');
    symlinkSync(dbFile, link);
    await expect(backupDatabase(config(), link, { overwrite: true })).rejects.toThrow(
      /^Refusing to write the backup onto the database's own file/,
    );
    expect(count(dbFile)).toBe(10);
  });

  it('refuses a folder that does not exist, a folder as FILE and an empty name', async () => {
    makeDatabase(10);
    const missing = join(dir, 'missing');
    await expect(backupDatabase(config(), join(missing, 'b.db'))).rejects.toThrow(
      `The backup's folder does not exist: ${missing}`,
    );
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    await expect(backupDatabase(config(), folder, { overwrite: true })).rejects.toThrow(
      `${folder} is a folder, not a file`,
    );
    await expect(backupDatabase(config(), ' ')).rejects.toThrow('No backup file given');
  });

  it('refuses when there is no database, and creates none', async () => {
    await expect(backupDatabase(config(), join(dir, 'b.db'))).rejects.toThrow(
      `There is no SQLite database at ${dbFile}`,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps no copy that fails the integrity check', async () => {
    makeDatabase();
    // Garbage over the middle of the file: pages of the table or its index, not the header.
    const fd = openSync(dbFile, 'r+');
    writeSync(fd, Buffer.alloc(4096 * 8, 0x5a), 0, 4096 * 8, 4096 * 20);
    closeSync(fd);
    const target = join(dir, 'backup.db');
    await expect(backupDatabase(config(), target)).rejects.toThrow(
      /^The copy failed PRAGMA integrity_check: /,
    );
    expect(readdirSync(dir).sort()).toEqual(['url-shorter.db']);
  });
});
