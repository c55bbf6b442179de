import { Command, CommanderError } from 'commander';
import { APP_VERSION } from '../config/version';
import { adminCommand } from './commands/admin';
import { backupCommand } from './commands/backup';
import { configCommand } from './commands/config';
import { domainsCommand } from './commands/domains';
import { migrateCommand } from './commands/migrate';
import { shortsCommand } from './commands/shorts';
import { type CliIo, failureLine } from './io';
import { CliRuntime } from './runtime';

export type { CliIo } from './io';

/** The program: every command on one runtime (its output, configuration and database). */
function program(run: CliRuntime): Command {
  const cli = new Command('url-shorter')
    .description(
      "URL-Shorter's operator tool: runs with the server's configuration (the same environment variables), on a stopped or running instance",
    )
    .version(APP_VERSION, '-V, --version')
    .option('--json', 'print machine-readable JSON on standard output')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => run.io.stdout(s),
      writeErr: (s) => run.io.stderr(s),
    })
    .hook('preAction', (_cli, action) => {
      run.json = action.optsWithGlobals<{ json?: boolean }>().json === true;
    });
  for (const command of [
    migrateCommand,
    configCommand,
    adminCommand,
    domainsCommand,
    shortsCommand,
    backupCommand,
  ]) {
    command(cli, run);
  }
  return cli;
}

/**
 * Runs the CLI on `argv` (the arguments after the program's name) and answers its exit code: 0 on
 * success, 1 on a failure, reported as one line on stderr (with its stack only when DEBUG is set
 * or LOG_LEVEL is debug).
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const run = new CliRuntime(io);
  try {
    await program(run).parseAsync(argv, { from: 'user' });
    return run.exitCode;
  } catch (err) {
    // Commander has written its own message (usage errors) or the help/version (exit code 0).
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 1;
    io.stderr(run.scrub(`error: ${failureLine(err)}`) + '\n');
    if (run.debug && err instanceof Error && err.stack) io.stderr(run.scrub(err.stack) + '\n');
    return 1;
  }
}
