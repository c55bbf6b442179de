import { Global, Module } from '@nestjs/common';
import { SentryService } from './sentry.service';

/** Error reporting (active only with SENTRY_DSN); failures reach it through FailureReporter. */
@Global()
@Module({ providers: [SentryService], exports: [SentryService] })
export class SentryModule {}
