import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config';
import { backupDatabase } from '../../src/operations/backup';
import { createTestApp, useTestApp } from '../support/app';
import { TEST_DB_KIND, TEST_DB_URL } from '../support/database';
import { insertShorts } from '../support/shorts';
import { waitFor } from '../support/wait';

/**
 * CONTRACT "Operations", Backup: `npm run backup -- FILE` (backupDatabase) copies the SQLite file
 * while the app serves, and the copy holds every short acknowledged before the backup began; for a
 * database server it prints the dump command, never the password.
 */
if (TEST_DB_KIND === 'sqlite') {
  describe('backup of the SQLite file while the app serves', () => {
    const t = useTestApp();
    const dir = mkdtempSync(join(tmpdir(), 'url-shorter-backup-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('writes a checked copy while creates go on; restored, it follows every short acknowledged before', async () => {
      // A file of about 3 MiB, so that the copy takes many steps with the app's work between them.
      await insertShorts(t, 10_000, (i) => ({ url: `https://example.com/seed/${i}` }));

      const acknowledged: Array<{ code: string; url: string }> = [];
      const refused: string[] = [];
      let backupStarted = false;
      let createdSinceStart = 0;
      let stop = false;
      const createLoop = async (worker: number) => {
        for (let i = 0; !stop; i++) {
          const url = `https://example.com/during/${worker}/${i}`;
          const res = await t.post('/api/code', { url });
          if (res.status !== 201) {
            refused.push(`${res.status} ${await res.text()}`);
            continue;
          }
          acknowledged.push({ code: ((await res.json()) as { code: string }).code, url });
          if (backupStarted) createdSinceStart++;
        }
      };
      const loops = [createLoop(0), createLoop(1), createLoop(2)];
      try {
        await waitFor(() => acknowledged.length >= 30, { message: '30 creates acknowledged' });
        // Every 201 received so far: the backup must hold these.
        const before = [...acknowledged];
        backupStarted = true;
        const target = join(dir, 'backup.db');
        const result = await backupDatabase(t.config, target);
        expect(result).toMatchObject({ engine: 'sqlite', file: target });
        // The app kept creating during and after the copy.
        await waitFor(() => createdSinceStart >= 30, {
          message: () => `30 creates after the backup began (${createdSinceStart})`,
        });
        stop = true;
        await Promise.all(loops);
        expect(refused).toEqual([]);

        const copy = new Database(target, { readonly: true });
        try {
          expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        } finally {
          copy.close();
        }

        // Restore: the copy becomes the data file of a second app (stopped app, file copied over).
        const restoredDir = mkdtempSync(join(tmpdir(), 'url-shorter-restored-'));
        const restoredFile = join(restoredDir, 'url-shorter.db');
        copyFileSync(target, restoredFile);
        const restored = await createTestApp({ DB_FILE: restoredFile });
        try {
          for (const { code, url } of before) {
            const res = await restored.fetch(`/api/code/${code}`);
            expect(res.status, `follow ${code} on the restored copy`).toBe(302);
            expect(res.headers.get('location')).toBe(url);
          }
          const [{ n }] = await restored.query<Array<{ n: number }>>(
            'SELECT count(*) AS n FROM shorts',
          );
          expect(Number(n)).toBeGreaterThanOrEqual(10_000 + before.length);
        } finally {
          await restored.close();
          rmSync(restoredDir, { recursive: true, force: true });
        }
      } finally {
        stop = true;
        await Promise.allSettled(loops);
      }
    });

    it('refuses to write onto the database the app is using', async () => {
      for (const suffix of ['', '-wal', '-shm']) {
        await expect(backupDatabase(t.config, t.config.db.file + suffix)).rejects.toThrow(
          /^Refusing to write the backup onto the database's own file/,
        );
      }
      const res = await t.post('/api/code', { url: 'https://example.com/after-refusal' });
      expect(res.status).toBe(201);
    });
  });
} else {
  describe(`backup on ${TEST_DB_KIND}`, () => {
    const t = useTestApp();
    const tool = TEST_DB_KIND === 'postgres' ? 'pg_dump' : 'mysqldump';

    it(`prints the ${tool} command of the configured database`, async () => {
      const result = await backupDatabase(t.config, '/var/backups/url-shorter.sql');
      const server = (t.config.db.mysql ?? t.config.db.postgres)!;
      expect(result.engine).toBe(t.config.db.type);
      const command = result.command as string;
      expect(command.startsWith(`${tool} `)).toBe(true);
      const user = TEST_DB_KIND === 'postgres' ? 'username' : 'user';
      for (const part of [
        `--host=${server.host}`,
        `--port=${server.port}`,
        `--${user}=${server.username}`,
        server.database,
        '/var/backups/url-shorter.sql',
      ]) {
        expect(command).toContain(part);
      }
    });

    it('never prints the password of DB_URL: the tool asks for it', async () => {
      const url = new URL(TEST_DB_URL as string);
      const password = 'Canary pass$word';
      url.password = encodeURIComponent(password);
      url.pathname = '/url_shorter';
      const config = loadConfig({ APP_SECRET: 'b'.repeat(40), DB_URL: url.toString() });
      const command = (await backupDatabase(config, '/var/backups/u.sql')).command as string;
      expect(command).toContain(' --password ');
      expect(command).not.toContain('Canary');
      expect(command).not.toContain(encodeURIComponent(password));
    });
  });
}
