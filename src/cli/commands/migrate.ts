import type { Command } from 'commander';
import { MigrationExecutor } from 'typeorm';
import { type CliRuntime, databaseLabel } from '../runtime';

/** `migrate`: the server's pending migrations, run as the server runs them at start. */
export function migrateCommand(program: Command, run: CliRuntime): void {
  program
    .command('migrate')
    .description('run the pending database migrations (the ones the server runs at start)')
    .action(async () => {
      const config = run.config();
      const database = databaseLabel(config);
      const result = await run.withMigrationSource(async (ds) => {
        const ran = await ds.runMigrations({ transaction: 'each' });
        const applied = await new MigrationExecutor(ds).getExecutedMigrations();
        return { ran: ran.map((m) => m.name), applied: applied.length };
      });
      run.print(
        { database, ran: result.ran, applied: result.applied },
        result.ran.length
          ? [
              `Ran ${result.ran.length} migration(s) on ${database}:`,
              ...result.ran.map((name) => `  ${name}`),
            ]
          : `No pending migrations on ${database} (${result.applied} applied).`,
      );
    });
}
