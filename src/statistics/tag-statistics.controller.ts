import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentActor, type Actor } from '../common/actor';
import { ApiProblems } from '../common/api-problems';
import { RequireUser, Scope } from '../common/auth.guard';
import { NoStore } from '../common/no-store';
import { ApiSignedIn } from '../common/routes';
import { TagStatisticsDto, TagStatisticsQueryDto } from './tag-statistics.dto';
import { TagStatisticsService } from './tag-statistics.service';

/** `GET /api/statistics?tag=…`: the statistics of the caller's (or a team's) shorts of a tag. */
@ApiTags('statistics')
@ApiSignedIn()
@Controller('api')
export class TagStatisticsController {
  constructor(private readonly stats: TagStatisticsService) {}

  @Get('statistics')
  @RequireUser()
  @Scope('statistics:read')
  @ApiOperation({
    operationId: 'getTagStatistics',
    summary:
      'Visits, unique visitors and bots of the caller’s shorts that carry a tag (or a team’s), summed, with the top shorts',
  })
  @ApiOkResponse({ type: TagStatisticsDto })
  @ApiProblems(400, 401, 403)
  @NoStore()
  getTagStatistics(
    @Query() query: TagStatisticsQueryDto,
    @CurrentActor() actor: Actor | null,
  ): Promise<TagStatisticsDto> {
    return this.stats.forTag(query, actor);
  }

  @Get('statistics.csv')
  @RequireUser()
  @Scope('statistics:read')
  @ApiOperation({
    operationId: 'getTagStatisticsCsv',
    summary: 'The same series as CSV: start,visits,visitors,bots',
  })
  @ApiOkResponse({ content: { 'text/csv': { schema: { type: 'string' } } } })
  @ApiProblems(400, 401, 403)
  @NoStore()
  async getTagStatisticsCsv(
    @Query() query: TagStatisticsQueryDto,
    @CurrentActor() actor: Actor | null,
    @Res() res: Response,
  ): Promise<void> {
    const csv = await this.stats.csvForTag(query, actor);
    res.setHeader('Content-Disposition', 'attachment; filename="statistics.csv"');
    res.type('text/csv; charset=utf-8').send(csv);
  }
}
