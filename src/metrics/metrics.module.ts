import { Global, Module } from '@nestjs/common';
import { MetricsService } from './metrics.service';

/** Prometheus metrics (one registry per app), available everywhere. */
@Global()
@Module({ providers: [MetricsService], exports: [MetricsService] })
export class MetricsModule {}
