import { Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '../access/access.module';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { DefaultAddressPolicy } from '../metadata/address-policy';
import { systemResolver } from '../metadata/safe-fetch';
import { ShortChangeHub } from '../shorts/short-change-hub';
import { ShortsModule } from '../shorts/shorts.module';
import { DomainsModule } from '../domains/domains.module';
import { DomainService } from '../domains/domain.service';
import type { FollowedVisit } from '../statistics/followed';
import { StatisticsModule } from '../statistics/statistics.module';
import { StatisticsRecorder } from '../statistics/recorder';
import {
  DEFAULT_WEBHOOK_OPTIONS,
  WEBHOOK_ADDRESS_POLICY,
  WEBHOOK_OPTIONS,
  WEBHOOK_RESOLVER,
  WebhookDeliveryJob,
} from './webhook-delivery.job';
import { WebhookDeliveryEntity, WebhookEntity } from './webhook.entity';
import { FOLLOWED_BURST, WebhookService } from './webhook.service';
import { WebhooksController } from './webhooks.controller';

/**
 * Webhooks (CONTRACT "Webhooks"): management, the outbox (`webhook_deliveries`) the changes of
 * shorts and domains, link health and the statistics' batches write to, and its delivery job.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([WebhookEntity, WebhookDeliveryEntity]),
    AccessModule,
    ShortsModule,
    StatisticsModule,
    DomainsModule,
  ],
  controllers: [WebhooksController],
  providers: [
    WebhookService,
    WebhookDeliveryJob,
    { provide: WEBHOOK_OPTIONS, useValue: DEFAULT_WEBHOOK_OPTIONS },
    {
      provide: WEBHOOK_ADDRESS_POLICY,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        new DefaultAddressPolicy(config.metadataAllowedPorts, config.metadataAllowLoopback),
    },
    { provide: WEBHOOK_RESOLVER, useValue: systemResolver },
  ],
  exports: [WebhookService],
})
export class WebhooksModule implements OnModuleInit, OnModuleDestroy {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly webhooks: WebhookService,
    private readonly shortChanges: ShortChangeHub,
    private readonly recorder: StatisticsRecorder,
    private readonly domains: DomainService,
  ) {}

  async onModuleInit(): Promise<void> {
    this.shortChanges.use({
      changed: async (type, s, view) => {
        await this.webhooks.emit(type, { ownerId: s.ownerId, teamId: s.teamId }, view);
      },
      hold: (type, shorts) => this.webhooks.hold(type, shorts),
      release: (eventId, data) => this.webhooks.release(eventId, data),
      drop: (eventIds) => this.webhooks.dropHeld(eventIds),
    });
    this.webhooks.useHeldDecider((type, short) => this.shortChanges.decideHeld(type, short));
    this.domains.useEvents((type, space, data) => this.webhooks.emit(type, space, data));
    // `short.followed`: the human visits of each statistics batch (the follow path only asks an
    // in-memory flag whether any webhook wants them).
    this.recorder.useFollowedSink({
      wanted: () => this.webhooks.followedWanted,
      perShort: FOLLOWED_BURST,
      write: (visits) => this.followed(visits),
    });
    await this.webhooks.refreshFlags().catch(() => undefined);
    // Another instance's webhook changes reach this one through Redis; without it, within a minute.
    this.timer = setInterval(
      () => void this.webhooks.refreshFlags().catch(() => undefined),
      60_000,
    );
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** A batch's visits as `short.followed` events of their shorts' spaces. */
  private async followed(visits: readonly FollowedVisit[]): Promise<void> {
    const ids = [...new Set(visits.map((v) => v.shortId))];
    const shorts = new Map((await this.shortChanges.identities(ids)).map((s) => [s.id, s]));
    const events = [];
    let seen = 0;
    for (const v of visits) {
      // A large batch gives the event loop back now and then.
      if (++seen % 1_000 === 0) await new Promise<void>((r) => setImmediate(r));
      const s = shorts.get(v.shortId);
      if (!s || (s.ownerId === null && s.teamId === null)) continue;
      const at = new Date(v.at);
      events.push({
        type: 'short.followed' as const,
        space: { ownerId: s.ownerId, teamId: s.teamId },
        at,
        data: {
          short: { id: s.id, code: s.code, domain: s.domain || null },
          at: at.toISOString(),
          target: v.target,
          country: v.country,
          device: v.device,
          os: v.os,
          browser: v.browser,
          referrerHost: v.referrerHost,
        },
      });
    }
    await this.webhooks.emitMany(events);
  }
}
