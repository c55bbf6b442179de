import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { dataSourceOptions } from './data-source';
import { JobLockService } from './job-lock.service';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        ...dataSourceOptions(config),
        retryAttempts: 3,
        retryDelay: 1000,
      }),
    }),
  ],
  providers: [JobLockService],
  exports: [JobLockService],
})
export class DatabaseModule {}
