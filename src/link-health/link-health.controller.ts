import { Controller, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentActor, type Actor } from '../common/actor';
import { ApiProblems } from '../common/api-problems';
import { ApiIdParam, ApiSignedIn, PostAction, uuidParam } from '../common/routes';
import { ShortHealthDto } from '../shorts/dto/short.dto';
import { LinkHealthService } from './link-health.service';
import { Scope } from '../common/auth.guard';

/** The owner's "check now" of a short's target (`POST /api/code/{id}/health`). */
@ApiTags('code')
@Controller('api/code')
export class LinkHealthController {
  constructor(private readonly health: LinkHealthService) {}

  @PostAction(':id/health')
  @ApiSignedIn()
  @ApiIdParam("The short's id (UUID)")
  @Scope('shorts:write')
  @ApiOperation({
    operationId: 'checkShortHealth',
    summary:
      'Check the short’s target now (owner or admin; limited per user by LIMIT_HEALTH_CHECK); answers its new link health',
  })
  @ApiOkResponse({ type: ShortHealthDto, description: 'The link health after the check' })
  @ApiProblems(400, 401, 403, 404, 429)
  async checkShortHealth(
    @Param('id', uuidParam()) id: string,
    @CurrentActor() actor: Actor | null,
  ): Promise<ShortHealthDto> {
    return this.health.checkNow(id, actor);
  }
}
