import { Global, Module } from '@nestjs/common';
import { JOB_FAILURES } from '../database/leased-jobs';
import { FailureReporter } from './failure-reporter';

/** Failure handling shared by every entry point (see FailureReporter); the leased jobs report here. */
@Global()
@Module({
  providers: [FailureReporter, { provide: JOB_FAILURES, useExisting: FailureReporter }],
  exports: [FailureReporter, JOB_FAILURES],
})
export class FailureModule {}
