import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BlacklistModule } from '../blacklist/blacklist.module';
import { DomainsModule } from '../domains/domains.module';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { RedisConnection } from '../redis/redis.connection';
import { CleanupService } from './cleanup.service';
import { LinkHealthJob } from './link-health.job';
import { LinkHealthService, linkProbeProvider } from './link-health.service';
import { FollowStore } from './follow-store';
import { PasswordLimiter } from './password-limiter';
import { ShortController } from './short.controller';
import { ShortEntity } from './short.entity';
import { ShortRepository } from './short.repository';
import { ShortService } from './short.service';

/**
 * Shorts, the owner of the `shorts` table: create, edit, info, the owner's list, delete, the
 * cleanup of expired anonymous shorts and link health (LinkHealthJob: the daily check of the
 * logged-in shorts' targets; LinkHealthService: one check, and the owner's check now). Exports
 * ShortService (everything other modules do with a short), FollowStore (the redirect engine's
 * reads, use claims and use counts) and the wrong-password counts; the repository stays inside.
 * Every change names the short's code on the cache bus (SHORT_CHANGED_CHANNEL), so no module needs
 * to be called back.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ShortEntity]), BlacklistModule, DomainsModule],
  controllers: [ShortController],
  providers: [
    ShortRepository,
    ShortService,
    FollowStore,
    CleanupService,
    linkProbeProvider,
    LinkHealthService,
    LinkHealthJob,
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
  exports: [ShortService, FollowStore, PasswordLimiter],
})
export class ShortsModule {}
