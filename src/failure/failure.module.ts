import { Global, Module } from '@nestjs/common';
import { JOB_FAILURES } from '../database/leased-jobs';
import { REDIS_TROUBLE } from '../redis/redis.connection';
import { FailureReporter } from './failure-reporter';

/**
 * Failure handling shared by every entry point (see FailureReporter); the Redis connection counts
 * its trouble in the reporter's Redis outage log (REDIS_TROUBLE), and the leased jobs report their
 * failures here (JOB_FAILURES).
 */
@Global()
@Module({
  providers: [
    FailureReporter,
    {
      provide: REDIS_TROUBLE,
      inject: [FailureReporter],
      useFactory: (failures: FailureReporter) => failures.redis,
    },
    { provide: JOB_FAILURES, useExisting: FailureReporter },
  ],
  exports: [FailureReporter, REDIS_TROUBLE, JOB_FAILURES],
})
export class FailureModule {}
