import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { STATUS_CODES } from 'node:http';
import { DomainError, ValidationFailedError } from './errors';
import { PROBLEM_CONTENT_TYPE, problem, type Problem } from './problem';

/** Turns any thrown value into an application/problem+json answer. */
export function toProblem(err: unknown, instance: string): { body: Problem; log: boolean } {
  if (err instanceof ValidationFailedError) {
    return {
      body: problem(400, err.title, err.message, instance, { fieldErrors: err.fieldErrors }),
      log: false,
    };
  }
  if (err instanceof DomainError) {
    return {
      body: problem(err.status, err.title, err.message, instance, { errorKey: err.errorKey }),
      log: false,
    };
  }
  if (err instanceof HttpException) {
    const status = err.getStatus();
    const res = err.getResponse();
    let detail = typeof res === 'string' ? res : err.message;
    if (typeof res === 'object' && res && 'message' in res) {
      const m = (res as { message: unknown }).message;
      detail = Array.isArray(m) ? m.join(', ') : String(m);
    }
    if (status === 404 && /^Cannot (GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS) /.test(detail)) {
      detail = 'No route matches this request';
    }
    return {
      body: problem(status, STATUS_CODES[status] ?? 'Error', detail, instance),
      log: status >= 500,
    };
  }
  // Errors raised by body parsing (http-errors): safe to expose when `expose` is set.
  const e = err as { status?: unknown; statusCode?: unknown; expose?: unknown; type?: unknown };
  const status = Number(e?.status ?? e?.statusCode);
  if (e && e.expose === true && status >= 400 && status < 500) {
    const detail =
      e.type === 'entity.too.large'
        ? 'Request body is too large'
        : e.type === 'entity.parse.failed'
          ? 'Request body is not valid JSON'
          : status === 415
            ? 'Unsupported content type'
            : (STATUS_CODES[status] ?? 'Bad Request');
    return { body: problem(status, STATUS_CODES[status] ?? 'Error', detail, instance), log: false };
  }
  return {
    body: problem(500, 'Internal Server Error', 'An unexpected error occurred', instance),
    log: true,
  };
}

export function sendProblem(res: Response, body: Problem): void {
  if (res.headersSent) return;
  res.status(body.status).type(PROBLEM_CONTENT_TYPE).setHeader('Cache-Control', 'no-store');
  res.send(JSON.stringify(body));
}

@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request>();
    const res = ctx.getResponse<Response>();
    const { body, log } = toProblem(exception, req.path);
    if (log) {
      // The path only: query strings may carry passwords.
      this.logger.error(
        `${req.method} ${req.path} failed: ${exception instanceof Error ? (exception.stack ?? exception.message) : String(exception)}`,
      );
    }
    sendProblem(res, body);
  }
}
