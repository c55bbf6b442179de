import { Module } from '@nestjs/common';
import { ShortsModule } from '../shorts/shorts.module';
import { LinkHealthController } from './link-health.controller';
import { LinkHealthJob } from './link-health.job';
import { LinkHealthService, linkProbeProvider } from './link-health.service';

/**
 * Link health: the daily check of the logged-in shorts' targets (LinkHealthJob), one check and
 * the owner's "check now" (LinkHealthService, LinkHealthController). The health columns belong to
 * the shorts table: read and written through the shorts module's HealthStore.
 */
@Module({
  imports: [ShortsModule],
  controllers: [LinkHealthController],
  providers: [linkProbeProvider, LinkHealthService, LinkHealthJob],
})
export class LinkHealthModule {}
