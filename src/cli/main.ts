#!/usr/bin/env node
import { runCli } from './cli';

// A reader that stops early (`url-shorter shorts export … | head`) is no failure.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

// The package's `bin` (`url-shorter`): the CLI on this process's arguments and streams.
void runCli(process.argv.slice(2), {
  stdout: (s) => void process.stdout.write(s),
  stderr: (s) => void process.stderr.write(s),
}).then((code) => {
  process.exitCode = code;
  // Every connection is closed by now; should a handle still be open, it does not hold the exit.
  setTimeout(() => process.exit(code), 5000).unref();
});
