import { DomainError, ValidationFailedError } from '../common/errors';

/** Where the CLI writes and what it reads its configuration from (tests pass their own). */
export interface CliIo {
  stdout(s: string): void;
  stderr(s: string): void;
  /** The environment the configuration is read from (default: the process environment). */
  env?: NodeJS.ProcessEnv;
}

/** A failure the CLI reports as its one line on stderr (exit code 1). */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

/** Whether stack traces and every log line go to stderr (DEBUG set, or LOG_LEVEL debug/trace). */
export function debugOf(env: NodeJS.ProcessEnv): boolean {
  const level = env.LOG_LEVEL?.trim().toLowerCase();
  return !!env.DEBUG?.trim() || level === 'debug' || level === 'trace';
}

/**
 * The one line a failure is reported with: the CLI's own message, a service's refusal as the API
 * words it (field errors as `field: message`), else the error's first line.
 */
export function failureLine(err: unknown): string {
  if (err instanceof ValidationFailedError) {
    return Object.entries(err.fieldErrors)
      .map(([field, message]) => `${field}: ${message}`)
      .join('; ');
  }
  if (err instanceof CliError || err instanceof DomainError) return err.message;
  const text = err instanceof Error ? err.message || err.name : String(err);
  return text.split('\n')[0].trim() || 'failed';
}
