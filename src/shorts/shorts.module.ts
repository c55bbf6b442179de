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
import { ShortController } from './short.controller';
import { ShortEntity } from './short.entity';
import { ShortRepository } from './short.repository';
import { ShortService } from './short.service';

/**
 * Shorts, the owner of the `shorts` table: create, edit, info, the owner's list, delete and the
 * cleanup of expired anonymous shorts. Exports ShortService (everything other modules do with a
 * short), FollowStore (the redirect engine's reads, use claims and use counts), HealthStore (the
 * link-health checks' reads and writes of the health columns, src/link-health) and the
 * wrong-password counts; the repository stays inside.
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
    HealthStore,
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
  exports: [ShortService, FollowStore, HealthStore, PasswordLimiter],
})
export class ShortsModule {}
