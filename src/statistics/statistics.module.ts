import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { FollowModule } from '../follow/follow.module';
import { ShortsModule } from '../shorts/shorts.module';
import { FollowService } from '../follow/follow.service';
import { GeoLookup } from './geo';
import { StatisticsRecorder } from './recorder';
import { StatisticsController } from './statistics.controller';
import { StatisticsRetention } from './statistics-retention';
import { StatisticsService } from './statistics.service';
import { TagStatisticsController } from './tag-statistics.controller';
import { TagStatisticsService } from './tag-statistics.service';
import { ShortVisits } from './visits';
import { ShortViewService } from '../shorts/short-view.service';

/**
 * Visit statistics (the `stats_*` tables): recorded from the follow path through FollowService's
 * observer (the redirect engine knows nothing of statistics), written in batches, answered per
 * short to its owner and admins, and trimmed by the retention job. The shorts module knows nothing
 * of them either: this module gives it the own list's visits (ShortViewService.useVisits) and hears
 * of deleted shorts on the cache bus.
 */
@Module({
  imports: [ShortsModule, FollowModule, AccessModule],
  controllers: [StatisticsController, TagStatisticsController],
  providers: [
    GeoLookup,
    StatisticsRecorder,
    StatisticsService,
    TagStatisticsService,
    StatisticsRetention,
    ShortVisits,
  ],
  exports: [StatisticsRecorder, StatisticsRetention],
})
export class StatisticsModule implements OnModuleInit {
  constructor(
    private readonly follow: FollowService,
    private readonly recorder: StatisticsRecorder,
    private readonly shorts: ShortViewService,
    private readonly visits: ShortVisits,
    private readonly geo: GeoLookup,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.follow.observe((shortId, input, target, owned) =>
      this.recorder.record(shortId, input, target, undefined, owned),
    );
    // With statistics on, a follow's use is written in the same batch as its aggregates.
    if (this.config.stats.enabled) {
      this.follow.useCounter(this.recorder.uses);
      // Follows of ever new shorts wait for the writer when its backlog is full (bounded heap).
      this.follow.useBackpressure(() => this.recorder.room());
    }
    // `country` redirect rules see the country the statistics count.
    this.follow.useCountryLookup((address) => this.geo.country(address));
    this.shorts.useVisits(this.visits);
  }
}
