import { resolve } from 'node:path';
import { bootConfig, ConfigError } from '../config/config';
import { backupDatabase, describeBackup } from './backup';

/**
 * `npm run backup -- FILE [--overwrite]`: backs up the configured database, with the server's
 * configuration booted as main.ts boots it. Prints one line: where the SQLite copy was written, or
 * the dump command to run (MariaDB/MySQL, PostgreSQL). A failure prints one line and exits with 1.
 */
const USAGE = 'Usage: npm run backup -- FILE [--overwrite]';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const files = args.filter((a) => !a.startsWith('--'));
  const unknown = args.filter((a) => a.startsWith('--') && a !== '--overwrite');
  if (unknown.length) throw new Error(`unknown option ${unknown[0]}. ${USAGE}`);
  if (files.length !== 1) throw new Error(`name one backup file. ${USAGE}`);
  const config = bootConfig();
  // `npm run` starts scripts in the package folder: FILE is relative to where it was typed.
  const target = resolve(process.env.INIT_CWD ?? process.cwd(), files[0]);
  const result = await backupDatabase(config, target, { overwrite: args.includes('--overwrite') });
  console.log(describeBackup(result));
}

main().catch((err: unknown) => {
  const message =
    err instanceof ConfigError
      ? `invalid configuration: ${err.problems.join('; ')}`
      : err instanceof Error
        ? err.message
        : String(err);
  console.error(`Backup failed: ${message}`);
  process.exit(1);
});
