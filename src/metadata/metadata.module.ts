import { Module, type OnModuleInit } from '@nestjs/common';
import { FollowModule } from '../follow/follow.module';
import { FollowService } from '../follow/follow.service';
import { ShortsModule } from '../shorts/shorts.module';
import { MetadataController } from './metadata.controller';
import { MetadataService, metadataProviders } from './metadata.service';

/**
 * The preview of a short's target (title, description, image), fetched SSRF-safe and cached. A
 * link card's empty parts come from what its cache holds (FollowService.useMetadataPeek).
 */
@Module({
  imports: [ShortsModule, FollowModule],
  controllers: [MetadataController],
  providers: [...metadataProviders],
})
export class MetadataModule implements OnModuleInit {
  constructor(
    private readonly follow: FollowService,
    private readonly metadata: MetadataService,
  ) {}

  onModuleInit(): void {
    this.follow.useMetadataPeek((url) => this.metadata.cached(url));
  }
}
