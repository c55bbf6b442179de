import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Problem } from '../common/problem';
import type { FailedRequest, FailureHandler } from '../common/problem.filter';
import { databaseErrorCode } from '../database/errors';
import { LogService } from '../logging/log.service';
import { RedisUnavailableError } from '../redis/redis-unavailable.error';
import { SentryService } from '../sentry/sentry.service';
import { OutageLog } from './outage-log';
import { type FailureKind, toProblem } from './to-problem';

function describe(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

/**
 * The one place that decides what a failure costs in logs and reports, for every entry point
 * (Nest handlers, Express middleware, the follow fast path, background jobs):
 * - expected (4xx): nothing;
 * - unavailable (database down, silent or busy): 503, and the database outage log (a line when it
 *   starts, a count per interval, a line when it ends; reported to Sentry once per outage);
 * - unexpected: one error line with the stack and one Sentry report, per failure.
 */
@Injectable()
export class FailureReporter implements FailureHandler, OnApplicationShutdown {
  readonly database: OutageLog;
  readonly redis: OutageLog;

  constructor(
    private readonly log: LogService,
    private readonly sentry: SentryService,
  ) {
    this.database = new OutageLog('Database', {
      log: (level, message) => log.write(level, 'database', message),
      report: (err) => sentry.capture(err, { status: 503 }),
    });
    this.redis = new OutageLog(
      'Redis',
      {
        log: (level, message) => log.write(level, 'redis', message),
        report: (err) => sentry.capture(err),
      },
      'falling back to in-process state where it can (reconnecting)',
    );
  }

  /** The problem answer for a failed request, logged and reported as its kind demands. */
  request(err: unknown, req: FailedRequest): Problem {
    const { body, kind } = toProblem(err, req.path);
    if (kind === 'unexpected') {
      this.log.write('error', 'http', `${req.method} ${req.path} failed: ${describe(err)}`, {
        requestId: req.requestId,
      });
      this.sentry.capture(err, { ...req, status: body.status });
    } else if (kind === 'unavailable') {
      this.unavailable(err);
    }
    return body;
  }

  /** A failure outside a request (a scheduled job, a buffered write); `what` names the work. */
  background(err: unknown, what: string, logger: string): FailureKind {
    const { kind } = toProblem(err, '');
    if (kind === 'unavailable') this.unavailable(err);
    else {
      this.log.write('warn', logger, `${what} failed: ${describe(err)}`);
      this.sentry.capture(err);
    }
    return kind;
  }

  /** An unavailable dependency: the outage log of the one that failed. */
  private unavailable(err: unknown): void {
    if (err instanceof RedisUnavailableError) this.redis.failure(err, err.code);
    else this.database.failure(err, databaseErrorCode(err));
  }

  onApplicationShutdown(): void {
    this.database.stop();
    this.redis.stop();
  }
}
