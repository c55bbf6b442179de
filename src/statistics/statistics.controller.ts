import { Controller, Get, Param, ParseUUIDPipe, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentActor, type Actor } from '../common/actor';
import { ApiProblems } from '../common/api-problems';
import { ApiIdParam, ApiSignedIn } from '../common/routes';
import { RequireUser, Scope } from '../common/auth.guard';
import { ValidationFailedError } from '../common/errors';
import { NoStore } from '../common/no-store';
import { StatisticsDto } from './statistics.dto';
import { StatisticsQueryDto } from './statistics-query.dto';
import { StatisticsService } from './statistics.service';

/** The short's id: a malformed one is a validation error like the query's (`fieldErrors.id`). */
const shortId = () =>
  new ParseUUIDPipe({
    version: '4',
    exceptionFactory: () => new ValidationFailedError({ id: 'must be a UUID' }),
  });

@ApiTags('code')
@ApiSignedIn()
@Controller('api/code')
export class StatisticsController {
  constructor(private readonly stats: StatisticsService) {}

  @Get(':id/statistics')
  @RequireUser()
  @Scope('statistics:read')
  @ApiOperation({
    operationId: 'getShortStatistics',
    summary:
      'Visits, unique visitors and bots of a short over time, with top lists (owner or admin)',
  })
  @ApiIdParam("The short's id (UUID)")
  @ApiOkResponse({ type: StatisticsDto })
  @ApiProblems(400, 401, 403, 404)
  @NoStore()
  getShortStatistics(
    @Param('id', shortId()) id: string,
    @Query() query: StatisticsQueryDto,
    @CurrentActor() actor: Actor | null,
  ): Promise<StatisticsDto> {
    return this.stats.forShort(id, actor, query);
  }

  @Get(':id/statistics.csv')
  @RequireUser()
  @Scope('statistics:read')
  @ApiOperation({
    operationId: 'getShortStatisticsCsv',
    summary: 'The same series as CSV: start,visits,visitors,bots (owner or admin)',
  })
  @ApiIdParam("The short's id (UUID)")
  @ApiOkResponse({ content: { 'text/csv': { schema: { type: 'string' } } } })
  @ApiProblems(400, 401, 403, 404)
  @NoStore()
  async getShortStatisticsCsv(
    @Param('id', shortId()) id: string,
    @Query() query: StatisticsQueryDto,
    @CurrentActor() actor: Actor | null,
    @Res() res: Response,
  ): Promise<void> {
    const csv = await this.stats.csvForShort(id, actor, query);
    res.setHeader('Content-Disposition', 'attachment; filename="statistics.csv"');
    res.type('text/csv; charset=utf-8').send(csv);
  }
}
