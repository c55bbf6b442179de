import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BlacklistModule } from '../blacklist/blacklist.module';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { RedisConnection } from '../redis/redis.connection';
import { CleanupService } from './cleanup.service';
import { CodeController } from './code.controller';
import { FollowController } from './follow/follow.controller';
import { FollowService } from './follow/follow.service';
import { MetadataController } from './metadata/metadata.controller';
import { metadataProviders } from './metadata/metadata.service';
import { PasswordLimiter } from './password-limiter';
import { ShortEntity } from './short.entity';
import { ShortRepository } from './short.repository';
import { ShortService } from './short.service';
import { QrController } from './qr.controller';
import { QrService } from './qr.service';
import { TransferController } from './transfer.controller';
import { TransferService } from './transfer.service';

/**
 * Shorts (the `shorts` table): create, info, own list, delete, metadata, cleanup, and the redirect
 * engine (follow/). Exports the services other modules use; the repository stays inside.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ShortEntity]), BlacklistModule],
  // TransferController first: its literal paths (export, import) before CodeController's :id.
  controllers: [
    TransferController,
    CodeController,
    FollowController,
    MetadataController,
    QrController,
  ],
  providers: [
    ShortRepository,
    ShortService,
    FollowService,
    QrService,
    TransferService,
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
    ...metadataProviders,
  ],
  exports: [ShortService, FollowService],
})
export class CodeModule {}
