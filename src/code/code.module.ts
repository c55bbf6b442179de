import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BlacklistModule } from '../blacklist/blacklist.module';
import { CleanupService } from './cleanup.service';
import { CodeController } from './code.controller';
import { CodeService } from './code.service';
import { FollowController } from './follow.controller';
import { MetadataController } from './metadata/metadata.controller';
import { metadataProviders } from './metadata/metadata.service';
import { ShortEntity } from './short.entity';

@Module({
  imports: [TypeOrmModule.forFeature([ShortEntity]), BlacklistModule],
  controllers: [CodeController, FollowController, MetadataController],
  providers: [CodeService, CleanupService, ...metadataProviders],
  exports: [CodeService],
})
export class CodeModule {}
