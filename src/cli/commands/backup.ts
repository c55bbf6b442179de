import type { Command } from 'commander';
import { backupDatabase } from '../../operations/backup';
import { type CliRuntime, databaseLabel } from '../runtime';

/**
 * `backup FILE`: SQLite's online copy of the database into FILE while the app serves; MariaDB and
 * PostgreSQL: the dump command to run (src/operations/backup.ts).
 */
export function backupCommand(program: Command, run: CliRuntime): void {
  program
    .command('backup <file>')
    .description(
      'write a consistent copy of the SQLite database to FILE while the app serves; for MariaDB and PostgreSQL print the dump command to run',
    )
    .action(async (file: string) => {
      const config = run.config();
      const result = await backupDatabase(config, file);
      const database = databaseLabel(config);
      run.print(
        { database, ...result },
        result.command !== undefined
          ? [`# ${database}: run`, result.command]
          : `Wrote a backup of ${database} to ${result.file ?? file}` +
              (result.bytes !== undefined ? ` (${result.bytes} bytes` : '') +
              (result.bytes !== undefined && result.durationMs !== undefined
                ? `, ${result.durationMs} ms)`
                : result.bytes !== undefined
                  ? ')'
                  : '') +
              '.',
      );
    });
}
