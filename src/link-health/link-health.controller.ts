import { Controller, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCookieAuth,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentActor, type Actor } from '../common/actor';
import { ApiProblems } from '../common/api-problems';
import { ShortHealthDto } from '../shorts/dto/short.dto';
import { LinkHealthService } from './link-health.service';

/** The owner's "check now" of a short's target (`POST /api/code/{id}/health`). */
@ApiTags('code')
@Controller('api/code')
export class LinkHealthController {
  constructor(private readonly health: LinkHealthService) {}

  @Post(':id/health')
  @HttpCode(200)
  @ApiCookieAuth('session')
  @ApiBearerAuth('apiKey')
  @ApiParam({ name: 'id', description: "The short's id (UUID)", format: 'uuid' })
  @ApiOperation({
    operationId: 'checkShortHealth',
    summary:
      'Check the short’s target now (owner or admin; limited per user by LIMIT_HEALTH_CHECK); answers its new link health',
  })
  @ApiOkResponse({ type: ShortHealthDto, description: 'The link health after the check' })
  @ApiProblems(400, 401, 403, 404, 429)
  async checkShortHealth(
    @Param('id', new ParseUUIDPipe({ version: '4' })) id: string,
    @CurrentActor() actor: Actor | null,
  ): Promise<ShortHealthDto> {
    return this.health.checkNow(id, actor);
  }
}
