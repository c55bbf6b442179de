import { type DynamicModule, Module } from '@nestjs/common';
import { UsersModule } from '../account/users.module';
import type { AppConfig } from '../config/config';
import { coreModules } from '../core.modules';
import { JOBS_OFF } from '../database/leased-jobs';
import { DomainsModule } from '../domains/domains.module';
import { TransferModule } from '../transfer/transfer.module';

/** Every leased job off in the CLI's process (see JOBS_OFF): its timers run nothing. */
@Module({})
class JobsOffModule {}

/**
 * What the CLI's commands need of the server's modules, as AppModule wires them, and nothing
 * more: the configuration, the database (with the server's migrations, timeouts and SQLite busy
 * handling), the infrastructure the services inject (logging, metrics, failures, Redis only when
 * REDIS_URL is set, the rate limits, the cache bus that tells the servers of a changed domain),
 * users, own domains and the transfer (import/export) service with the shorts it builds on. No
 * HTTP server (an application context), no ScheduleModule (no job runs on its interval), and every
 * leased job off (JOBS_OFF), so the CLI never takes a lease the servers need.
 */
@Module({})
export class CliModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ...coreModules(config),
        {
          module: JobsOffModule,
          global: true,
          providers: [{ provide: JOBS_OFF, useValue: true }],
          exports: [JOBS_OFF],
        },
        UsersModule,
        DomainsModule,
        TransferModule,
      ],
    };
  }
}
