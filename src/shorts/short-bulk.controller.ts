import { Body, Controller } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentActor, type Actor } from '../common/actor';
import { ApiProblems } from '../common/api-problems';
import { Scope } from '../common/auth.guard';
import { CurrentOrigin, type RequestOrigin } from '../common/request';
import { PostAction, UserRoute } from '../common/routes';
import { BulkEditDto, BulkResultDto } from './dto/short-bulk.dto';
import { ShortBulkService } from './short-bulk.service';

/** `POST /api/code/bulk`: one change of up to 500 of the caller's shorts, all or nothing. */
@ApiTags('code')
@Controller('api/code')
export class ShortBulkController {
  constructor(private readonly bulk: ShortBulkService) {}

  @PostAction('bulk')
  @UserRoute()
  @Scope('shorts:write')
  @ApiOperation({
    operationId: 'bulkEditShorts',
    summary:
      'Change or delete up to 500 of the caller’s shorts at once (expiry, limit, team, tags), all or nothing',
    description:
      'Every id must be the caller’s to write (owner, the team’s editors and owners, admins); else nothing happens and the 403 (`not_owner`) lists the refused ids in `ids`. A short that would carry more than 10 tags: 400 `too_many_tags` with its id; a short deleted or moved meanwhile: 409 `bulk_conflict`. `delete: true` excludes the other changes. Each call counts against `LIMIT_BULK` per user (429 over it).',
  })
  @ApiBody({ type: BulkEditDto })
  @ApiOkResponse({ type: BulkResultDto })
  @ApiProblems(400, 401, 403, 409, 413, 415, 429)
  bulkEditShorts(
    @Body() dto: BulkEditDto,
    @CurrentActor() actor: Actor | null,
    @CurrentOrigin() origin: RequestOrigin,
  ): Promise<BulkResultDto> {
    return this.bulk.bulk(dto, actor, origin);
  }
}
