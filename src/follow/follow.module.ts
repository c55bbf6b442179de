import { Module } from '@nestjs/common';
import { BlacklistModule } from '../blacklist/blacklist.module';
import { ShortsModule } from '../shorts/shorts.module';
import { FollowController, ShortFollowController } from './follow.controller';
import { FollowService } from './follow.service';

/**
 * The redirect engine: following a short (`/s/{code}`, `GET /api/code/{code}`, and the HTTP
 * server's fast entry, app.server.ts) with its in-process cache. Reads shorts and claims uses
 * through the shorts module's FollowStore; tells observers (the statistics) of every follow.
 */
@Module({
  imports: [ShortsModule, BlacklistModule],
  controllers: [FollowController, ShortFollowController],
  providers: [FollowService],
  exports: [FollowService],
})
export class FollowModule {}
