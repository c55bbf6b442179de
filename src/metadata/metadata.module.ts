import { Module } from '@nestjs/common';
import { ShortsModule } from '../shorts/shorts.module';
import { MetadataController } from './metadata.controller';
import { metadataProviders } from './metadata.service';

/** The preview of a short's target (title, description, image), fetched SSRF-safe and cached. */
@Module({
  imports: [ShortsModule],
  controllers: [MetadataController],
  providers: [...metadataProviders],
})
export class MetadataModule {}
