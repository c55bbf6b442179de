import type { LoggerService } from '@nestjs/common';
import type { Redactor } from '../logging/redact';

type Level = 'log' | 'error' | 'warn' | 'debug' | 'verbose' | 'fatal';

/**
 * The CLI's Nest logger: warnings and errors of the shared modules as single lines on stderr
 * (secrets masked); everything, with stacks, when debugging. Standard output stays the command's.
 */
export class CliLogger implements LoggerService {
  constructor(
    private readonly write: (line: string) => void,
    private readonly redactor: Redactor,
    private readonly everything: boolean,
  ) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.line('log', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.line('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.line('warn', message, rest);
  }
  debug?(message: unknown, ...rest: unknown[]): void {
    this.line('debug', message, rest);
  }
  verbose?(message: unknown, ...rest: unknown[]): void {
    this.line('verbose', message, rest);
  }
  fatal?(message: unknown, ...rest: unknown[]): void {
    this.line('fatal', message, rest);
  }

  private line(level: Level, message: unknown, rest: unknown[]): void {
    const quiet = level === 'log' || level === 'debug' || level === 'verbose';
    if (quiet && !this.everything) return;
    const context =
      rest.length && typeof rest[rest.length - 1] === 'string' ? `[${String(rest.at(-1))}] ` : '';
    let text =
      message instanceof Error
        ? this.everything
          ? (message.stack ?? message.message)
          : message.message
        : typeof message === 'string'
          ? message
          : JSON.stringify(message);
    // Nest's error(message, stack, context): the stack only when debugging.
    if (this.everything && level === 'error' && rest.length >= 2 && typeof rest[0] === 'string') {
      text += `\n${rest[0]}`;
    }
    if (!this.everything) text = text.split('\n')[0];
    const label = level === 'log' ? 'info' : level === 'verbose' ? 'trace' : level;
    this.write(this.redactor.scrub(`${label}: ${context}${text}`) + '\n');
  }
}
