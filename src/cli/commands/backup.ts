import type { Command } from 'commander';
import { backupDatabase, describeBackup } from '../../operations/backup';
import { type CliRuntime, databaseLabel } from '../runtime';

/**
 * `backup FILE [--overwrite]` (also `npm run backup -- FILE`): SQLite's online copy of the database into
 * FILE while the app serves; MariaDB and PostgreSQL: the dump command to run (src/operations/backup.ts).
 */
export function backupCommand(program: Command, run: CliRuntime): void {
  program
    .command('backup <file>')
    .description(
      'write a consistent copy of the SQLite database to FILE while the app serves; for MariaDB and PostgreSQL print the dump command to run',
    )
    .option('--overwrite', 'replace FILE when it exists')
    .action(async (file: string, opts: { overwrite?: boolean }) => {
      const config = run.config();
      const result = await backupDatabase(config, run.path(file), {
        overwrite: opts.overwrite === true,
      });
      run.print({ database: databaseLabel(config), ...result }, describeBackup(result));
    });
}
