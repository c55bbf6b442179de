import { Module, type OnModuleInit } from '@nestjs/common';
import { FollowModule } from '../follow/follow.module';
import { ShortsModule } from '../shorts/shorts.module';
import { FollowService } from '../follow/follow.service';
import { GeoLookup } from './geo';
import { StatisticsRecorder } from './recorder';
import { StatisticsController } from './statistics.controller';
import { StatisticsRetention } from './statistics-retention';
import { StatisticsService } from './statistics.service';

/**
 * Visit statistics (the `stats_*` tables): recorded from the follow path through FollowService's
 * observer (the redirect engine knows nothing of statistics), written in batches, answered per
 * short to its owner and admins, and trimmed by the retention job.
 */
@Module({
  imports: [ShortsModule, FollowModule],
  controllers: [StatisticsController],
  providers: [GeoLookup, StatisticsRecorder, StatisticsService, StatisticsRetention],
  exports: [StatisticsRecorder],
})
export class StatisticsModule implements OnModuleInit {
  constructor(
    private readonly follow: FollowService,
    private readonly recorder: StatisticsRecorder,
  ) {}

  onModuleInit(): void {
    this.follow.observe((shortId, input) => this.recorder.record(shortId, input));
  }
}
