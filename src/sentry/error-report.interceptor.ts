import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import type { Request } from 'express';
import { type Observable, catchError, throwError } from 'rxjs';
import { toProblem } from '../common/problem.filter';
import { SentryService } from './sentry.service';

/** Reports errors that become a 500 (the ones ProblemFilter logs) to Sentry, then rethrows. */
@Injectable()
export class ErrorReportInterceptor implements NestInterceptor {
  constructor(private readonly sentry: SentryService) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (!this.sentry.enabled || ctx.getType() !== 'http') return next.handle();
    return next.handle().pipe(
      catchError((err: unknown) => {
        const req = ctx.switchToHttp().getRequest<Request & { id?: string }>();
        const p = toProblem(err, req.path);
        if (p.log) {
          this.sentry.capture(err, {
            requestId: req.id,
            method: req.method,
            path: req.path,
            route: req.route ? `${req.baseUrl}${(req.route as { path: string }).path}` : undefined,
            status: p.body.status,
          });
        }
        return throwError(() => err);
      }),
    );
  }
}
