import { AccessModule } from '../access/access.module';
import { Module } from '@nestjs/common';
import { ShortsModule } from '../shorts/shorts.module';
import { TransferController } from './transfer.controller';
import { TransferService } from './transfer.service';

/**
 * Export and import of a user's own shorts. Its routes (`GET /api/code/export`,
 * `POST /api/code/import`) must be registered before the follow module's `GET /api/code/:id`:
 * AppModule lists this module first.
 */
@Module({
  imports: [ShortsModule, AccessModule],
  controllers: [TransferController],
  providers: [TransferService],
})
export class TransferModule {}
