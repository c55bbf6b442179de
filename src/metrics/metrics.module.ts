import { Global, Module } from '@nestjs/common';
import { JOB_METRICS } from '../database/leased-jobs';
import { MetricsService } from './metrics.service';

/** Prometheus metrics (one registry per app), available everywhere; the leased jobs count runs here. */
@Global()
@Module({
  providers: [MetricsService, { provide: JOB_METRICS, useExisting: MetricsService }],
  exports: [MetricsService, JOB_METRICS],
})
export class MetricsModule {}
