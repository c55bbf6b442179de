import { Global, Module } from '@nestjs/common';
import { FailureReporter } from './failure-reporter';

/** Failure handling shared by every entry point (see FailureReporter). */
@Global()
@Module({ providers: [FailureReporter], exports: [FailureReporter] })
export class FailureModule {}
