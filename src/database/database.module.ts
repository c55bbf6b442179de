import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { dataSourceOptions } from './data-source';
import { JobLockService } from './job-lock.service';
import { LeasedJobs } from './leased-jobs';
import { applyMysqlTimeouts } from './mysql-timeouts';
import { applyPostgresTimeouts } from './postgres-timeouts';
import { applySqliteBusyRetry } from './sqlite-busy';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        ...dataSourceOptions(config),
        autoLoadEntities: true,
        retryAttempts: 3,
        retryDelay: 1000,
      }),
      // Once the schema is migrated, every wait for the database gets DB_TIMEOUT_MS (MySQL/MariaDB:
      // its connectTimeout; SQLite: its timeout).
      dataSourceFactory: async (options?: DataSourceOptions) => {
        const ds = await new DataSource(options as DataSourceOptions).initialize();
        if (ds.options.type === 'mysql') applyMysqlTimeouts(ds, ds.options.connectTimeout ?? 2000);
        if (ds.options.type === 'postgres') applyPostgresTimeouts(ds);
        // SQLite: from now on a lock is waited for without blocking the event loop (migrations,
        // above, waited in SQLite itself, as other instances may be migrating the same file).
        if (ds.options.type === 'better-sqlite3')
          applySqliteBusyRetry(ds, ds.options.timeout ?? 2000);
        return ds;
      },
    }),
  ],
  providers: [JobLockService, LeasedJobs],
  exports: [JobLockService, LeasedJobs],
})
export class DatabaseModule {}
