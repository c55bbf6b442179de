import type { ModuleMetadata } from '@nestjs/common';
import type { AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { FailureModule } from './failure/failure.module';
import { LimitsModule } from './limits/limits.module';
import { LoggingModule } from './logging/logging.module';
import { MetricsModule } from './metrics/metrics.module';
import { CacheBusModule } from './redis/cache-bus';
import { RedisModule } from './redis/redis.module';
import { SentryModule } from './sentry/sentry.module';

/**
 * The configuration and the infrastructure every process of the app wires first, in this order:
 * the server (AppModule) and the operator's CLI (CliModule) share the list, so they cannot drift.
 */
export function coreModules(config: AppConfig): NonNullable<ModuleMetadata['imports']> {
  return [
    ConfigModule.forRoot(config),
    LoggingModule,
    MetricsModule,
    SentryModule,
    FailureModule,
    RedisModule,
    LimitsModule,
    DatabaseModule,
    CacheBusModule,
  ];
}
