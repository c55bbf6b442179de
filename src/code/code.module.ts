import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BlacklistModule } from '../blacklist/blacklist.module';
import { CleanupService } from './cleanup.service';
import { CodeController } from './code.controller';
import { CodeService } from './code.service';
import { FollowController } from './follow.controller';
import { ShortEntity } from './short.entity';

@Module({
  imports: [TypeOrmModule.forFeature([ShortEntity]), BlacklistModule],
  controllers: [CodeController, FollowController],
  providers: [CodeService, CleanupService],
  exports: [CodeService],
})
export class CodeModule {}
