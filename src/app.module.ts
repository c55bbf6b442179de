import { type DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { AccountModule } from './account/account.module';
import { CodeModule } from './code/code.module';
import type { AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { FlagsModule } from './flags/flags.module';
import { WebModule } from './web/web.module';

@Module({})
export class AppModule {
  /** The whole application for one validated configuration. */
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule, ScheduleModule.forRoot(), AccountModule, CodeModule, FlagsModule, WebModule],
    };
  }
}
