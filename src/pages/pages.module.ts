import { Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '../access/access.module';
import { DomainService } from '../domains/domain.service';
import { DomainsModule } from '../domains/domains.module';
import { FailureReporter } from '../failure/failure-reporter';
import { ShortsModule } from '../shorts/shorts.module';
import { StatisticsModule } from '../statistics/statistics.module';
import { StatisticsRetention } from '../statistics/statistics-retention';
import { PageLinkEntity, PageEntity } from './page.entity';
import { PageRenderer } from './page-renderer';
import { PageViews } from './page-views';
import { PagesController } from './pages.controller';
import { PagesService } from './pages.service';

/** Own pages whose creator was deleted are removed this often. */
const SWEEP_MS = 60 * 60_000;

/**
 * Link pages (CONTRACT "Marketing links"): `pages`, `page_links` and `page_views`; their API, the
 * public render (PageRenderer, answered in front of Express by page-http.ts) and the views counted
 * in batches. The domains learn through a registered check which pages may be a domain's home.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([PageEntity, PageLinkEntity]),
    AccessModule,
    ShortsModule,
    DomainsModule,
    StatisticsModule,
  ],
  controllers: [PagesController],
  providers: [PagesService, PageRenderer, PageViews],
  exports: [PageRenderer, PagesService],
})
export class PagesModule implements OnModuleInit, OnModuleDestroy {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly pages: PagesService,
    private readonly domains: DomainService,
    private readonly failures: FailureReporter,
    private readonly views: PageViews,
    private readonly retention: StatisticsRetention,
  ) {}

  onModuleInit(): void {
    this.domains.useHomePages((pageId, space) => this.pages.mayBeHomeOf(pageId, space));
    // Page views are kept as long as a short's statistics (STATS_RETENTION_DAYS).
    this.retention.alsoPrune((keepFrom) => this.views.prune(keepFrom));
    // A team's pages go with the team (foreign key); an own page loses its creator with his
    // account (SET NULL) and is shown nowhere from then on; this sweep removes it.
    this.timer = setInterval(() => {
      this.pages
        .sweepOrphans()
        .catch((err) => this.failures.background(err, 'Removing orphaned pages', 'PagesModule'));
    }, SWEEP_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }
}
