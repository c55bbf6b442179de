import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentActor, type Actor } from '../common/actor';
import { ApiProblems } from '../common/api-problems';
import { ForbiddenError } from '../common/errors';
import { clientKey } from '../common/request';
import { RevealQueryDto } from '../follow/dto/lookup-query.dto';
import { ShortAccessService } from '../shorts/short-access.service';
import { ShortMetaDto } from './dto/short-meta.dto';
import { MetadataService } from './metadata.service';
import { NoStore } from '../common/no-store';

@ApiTags('code')
@Controller('api/code')
export class MetadataController {
  constructor(
    private readonly shorts: ShortAccessService,
    private readonly metadata: MetadataService,
  ) {}

  @Get(':code/metadata')
  @NoStore()
  @ApiOperation({
    operationId: 'getShortMetadata',
    summary: "Title, description and image of the short's target page (all null when unavailable)",
  })
  @ApiParam({ name: 'code', type: String })
  @ApiOkResponse({
    type: ShortMetaDto,
    description: 'Metadata; all fields null when the page could not be read',
  })
  @ApiProblems(403, 404, 429)
  async getShortMetadata(
    @Param('code') code: string,
    @Query() query: RevealQueryDto,
    @Req() req: Request,
    @CurrentActor() actor: Actor | null,
  ): Promise<ShortMetaDto> {
    const short = await this.shorts.findVisible(
      code,
      this.shorts.requestDomain(req.headers.host, query.domain),
    );
    const may = await this.shorts.mayReveal(short, actor, query.password, clientKey(req));
    if (!may && short.maxUses !== null) {
      throw new ForbiddenError(
        'The target of a short with a use limit is shown only to its owner',
        'target_hidden',
      );
    }
    if (!may) throw new ForbiddenError('Password required', 'password_required');
    const meta = await this.metadata.forUrl(short.url);
    return { title: meta.title, description: meta.description, image: meta.image };
  }
}
