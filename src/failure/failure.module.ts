import { Global, Module } from '@nestjs/common';
import { REDIS_TROUBLE } from '../redis/redis.connection';
import { FailureReporter } from './failure-reporter';

/**
 * Failure handling shared by every entry point (see FailureReporter); the Redis connection counts
 * its trouble in the reporter's Redis outage log (REDIS_TROUBLE).
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
  ],
  exports: [FailureReporter, REDIS_TROUBLE],
})
export class FailureModule {}
