import type { INestApplication } from '@nestjs/common';

/** How long the shutdown hooks may take after SIGTERM before the process gives up (Docker kills at 10 s). */
export const STOP_DEADLINE_MS = 9_000;

interface StopLog {
  write(level: 'info' | 'error', logger: string, message: string): void;
}

/**
 * SIGTERM and SIGINT stop the app gracefully and end the process with exit code 0: no new connections, the
 * requests in flight answered, the shutdown hooks run (buffered uses and statistics written, pools closed).
 * Nest's own enableShutdownHooks() re-raises the signal after closing, so the process would end "killed by
 * SIGTERM" rather than with 0, which an orchestrator reports as a failure. Hooks that take longer than
 * STOP_DEADLINE_MS end the process with 1; a second signal while stopping is ignored.
 */
export function exitOnStopSignals(
  app: INestApplication,
  log: StopLog,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.write('info', 'process', `${signal}: stopping`);
    const deadline = setTimeout(() => {
      log.write(
        'error',
        'process',
        `The shutdown took longer than ${STOP_DEADLINE_MS} ms: exiting`,
      );
      exit(1);
    }, STOP_DEADLINE_MS);
    deadline.unref();
    app.close().then(
      () => {
        clearTimeout(deadline);
        exit(0);
      },
      (err: unknown) => {
        clearTimeout(deadline);
        log.write(
          'error',
          'process',
          `The shutdown failed: ${err instanceof Error ? err.message : String(err)}`,
        );
        exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
