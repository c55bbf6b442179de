import { Module, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '../access/access.module';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { DefaultAddressPolicy } from '../metadata/address-policy';
import { systemResolver } from '../metadata/safe-fetch';
import { ShortChangeHub } from '../shorts/short-change-hub';
import { ShortsModule } from '../shorts/shorts.module';
import {
  DEFAULT_WEBHOOK_OPTIONS,
  WEBHOOK_ADDRESS_POLICY,
  WEBHOOK_OPTIONS,
  WEBHOOK_RESOLVER,
  WebhookDeliveryJob,
} from './webhook-delivery.job';
import { WebhookDeliveryEntity, WebhookEntity } from './webhook.entity';
import { WebhookService } from './webhook.service';
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
export class WebhooksModule implements OnModuleInit {
  constructor(
    private readonly webhooks: WebhookService,
    private readonly shortChanges: ShortChangeHub,
  ) {}

  onModuleInit(): void {
    this.shortChanges.use({
      changed: async (type, s, view) => {
        await this.webhooks.emit(type, { ownerId: s.ownerId, teamId: s.teamId }, view);
      },
    });
  }
}
