import { Module } from '@nestjs/common';
import { AccountModule } from '../account/account.module';
import { ApiKeyModule } from '../apikey/apikey.module';
import { BlacklistModule } from '../blacklist/blacklist.module';
import { DomainsModule } from '../domains/domains.module';
import { PagesModule } from '../pages/pages.module';
import { ShortsModule } from '../shorts/shorts.module';
import { ReportModule } from '../report/report.module';
import { TeamsModule } from '../teams/teams.module';
import { AdminController } from './admin.controller';
import { AdminService } from './admin.service';

/** The generic admin API; it reads every table and writes none (the owners' services do). */
@Module({
  imports: [
    AccountModule,
    ApiKeyModule,
    BlacklistModule,
    DomainsModule,
    PagesModule,
    ShortsModule,
    ReportModule,
    TeamsModule,
  ],
  controllers: [AdminController],
  providers: [AdminService],
})
export class AdminModule {}
