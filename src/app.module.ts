import { type DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { AccountModule } from './account/account.module';
import { DomainsModule } from './domains/domains.module';
import { FollowModule } from './follow/follow.module';
import { MetadataModule } from './metadata/metadata.module';
import { QrModule } from './qr/qr.module';
import { ShortsModule } from './shorts/shorts.module';
import { LinkHealthModule } from './link-health/link-health.module';
import { TransferModule } from './transfer/transfer.module';
import type { AppConfig } from './config/config';
import { coreModules } from './core.modules';
import { FlagsModule } from './flags/flags.module';
import { WebModule } from './web/web.module';
import { FiguresModule } from './figures/figures.module';
import { ReportModule } from './report/report.module';
import { StatisticsModule } from './statistics/statistics.module';
import { AdminModule } from './admin/admin.module';
import { TeamsModule } from './teams/teams.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { ManagementModule } from './management/management.module';
import { UtmModule } from './utm/utm.module';
import { PagesModule } from './pages/pages.module';

@Module({})
export class AppModule {
  /** The whole application for one validated configuration. */
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ...coreModules(config),
        ScheduleModule.forRoot(),
        // Before FollowModule: its literal paths (`/api/code/export`) before `/api/code/:id`.
        TransferModule,
        AccountModule,
        DomainsModule,
        ShortsModule,
        LinkHealthModule,
        FollowModule,
        MetadataModule,
        QrModule,
        FlagsModule,
        WebModule,
        FiguresModule,
        ReportModule,
        StatisticsModule,
        TeamsModule,
        WebhooksModule,
        AdminModule,
        ManagementModule,
        UtmModule,
        PagesModule,
      ],
    };
  }
}
