import { TeamEntity } from '../teams/team.entity';
import { AccessModule } from '../access/access.module';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BlacklistModule } from '../blacklist/blacklist.module';
import { DomainsModule } from '../domains/domains.module';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { RedisConnection } from '../redis/redis.connection';
import { CleanupService } from './cleanup.service';
import { FollowStore } from './follow-store';
import { HealthStore } from './health-store';
import { PasswordLimiter } from './password-limiter';
import { ShortChangeHub } from './short-change-hub';
import { ShortAccessService } from './short-access.service';
import { ShortBulkController } from './short-bulk.controller';
import { ShortBulkService } from './short-bulk.service';
import { ShortController } from './short.controller';
import { TagsController } from './tags.controller';
import { ShortCreateService } from './short-create.service';
import { ShortEditService } from './short-edit.service';
import { ShortEntity } from './short.entity';
import { ShortTagEntity } from './short-tag.entity';
import { ShortFollowRepository } from './short-follow.repository';
import { ShortInsertRepository } from './short-insert.repository';
import { ShortRepository } from './short.repository';
import { ShortViewService } from './short-view.service';
import { TagCountCache } from './tag-count-cache';

/** What other modules use: a service per use case, the follow's and link health's ports. */
const EXPORTED = [
  ShortAccessService,
  ShortViewService,
  ShortCreateService,
  ShortEditService,
  FollowStore,
  HealthStore,
  ShortChangeHub,
];

/**
 * Shorts, the owner of the `shorts` table: create, edit, info, the owner's list, delete and the
 * cleanup of expired anonymous shorts, a service per use case: ShortCreateService (the create
 * rules, single and batch creates), ShortAccessService (who may manage or see a short),
 * ShortViewService (a short as the API shows it, the own list) and ShortEditService (edits,
 * deletes, the danger flag). Exports those, FollowStore (the redirect engine's reads, use claims
 * and use counts), HealthStore (the link-health checks' reads and writes of the health columns,
 * src/link-health) and the wrong-password counts; the repositories stay inside.
 * Every change names the short's code on the cache bus (SHORT_CHANGED_CHANNEL), so no module needs
 * to be called back; every write of tag rows names their spaces (TAG_SPACES_CHANGED_CHANNEL: the own
 * list's tag totals, TagCountCache).
 */
@Module({
  imports: [
    // The team entity: a short's team is loaded with it (its name).
    TypeOrmModule.forFeature([ShortEntity, ShortTagEntity, TeamEntity]),
    BlacklistModule,
    DomainsModule,
    AccessModule,
  ],
  controllers: [ShortController, TagsController, ShortBulkController],
  providers: [
    ShortRepository,
    ShortFollowRepository,
    ShortInsertRepository,
    TagCountCache,
    ...EXPORTED,
    ShortBulkService,
    CleanupService,
    {
      // Wrong-password counts: in Redis when it is connected (shared), in process otherwise.
      provide: PasswordLimiter,
      inject: [APP_CONFIG, RedisConnection],
      useFactory: (config: AppConfig, redis: RedisConnection) =>
        new PasswordLimiter(
          config.passwordMaxTries,
          config.passwordLockSeconds * 1000,
          () => redis.ready ?? undefined,
        ),
    },
  ],
  exports: [...EXPORTED, PasswordLimiter],
})
export class ShortsModule {}
