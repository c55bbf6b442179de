import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AccessPolicy } from '../access/access-policy';
import { ApiProblems } from '../common/api-problems';
import { CurrentActor, type Actor } from '../common/actor';
import { Scope } from '../common/auth.guard';
import { NoStore } from '../common/no-store';
import { UserRoute } from '../common/routes';
import { TagCountDto, TagCountsQueryDto } from './dto/tag-count.dto';
import { MAX_TAG_COUNTS, ShortViewService } from './short-view.service';

/** The tags of a space's shorts (CONTRACT "Tags and bulk edits"). */
@ApiTags('code')
@Controller('api/tags')
export class TagsController {
  constructor(
    private readonly view: ShortViewService,
    private readonly policy: AccessPolicy,
  ) {}

  @Get()
  @UserRoute()
  @Scope('shorts:read')
  @ApiOperation({
    operationId: 'listTags',
    summary: 'The tags of the caller’s own shorts (or a team’s) with their counts',
    description: `Most used first, ties by tag; at most ${MAX_TAG_COUNTS} (the most used). The rights of the own list: a team’s members read its tags.`,
  })
  @ApiOkResponse({ type: [TagCountDto] })
  @ApiProblems(400, 401, 403)
  @NoStore()
  async listTags(
    @Query() query: TagCountsQueryDto,
    @CurrentActor() actor: Actor,
  ): Promise<TagCountDto[]> {
    const team = await this.policy.readableTeam(actor, query.team);
    return this.view.tagCounts(team === null ? { ownerId: actor.id } : { teamId: team });
  }
}
