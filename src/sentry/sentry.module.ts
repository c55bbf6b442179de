import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { ErrorReportInterceptor } from './error-report.interceptor';
import { SentryService } from './sentry.service';

/** Error reporting (active only with SENTRY_DSN). */
@Global()
@Module({
  providers: [SentryService, { provide: APP_INTERCEPTOR, useClass: ErrorReportInterceptor }],
  exports: [SentryService],
})
export class SentryModule {}
