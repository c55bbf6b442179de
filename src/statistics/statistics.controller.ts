import { Controller, Get, Param, ParseUUIDPipe, Req, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCookieAuth,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentActor, type Actor } from '../common/actor';
import { ApiProblems } from '../common/api-problems';
import { RequireUser } from '../common/auth.guard';
import { ValidationFailedError } from '../common/errors';
import { queryParam } from '../common/request';
import { StatisticsDto } from './statistics.dto';
import { type StatisticsQuery, StatisticsService } from './statistics.service';

const RANGE_QUERY = [
  { name: 'from', description: 'ISO 8601; default: 30 days before `to`', format: 'date-time' },
  { name: 'to', description: 'ISO 8601; default: now', format: 'date-time' },
] as const;

/** The short's id: a malformed one is a validation error like the query's (`fieldErrors.id`). */
const shortId = () =>
  new ParseUUIDPipe({
    version: '4',
    exceptionFactory: () => new ValidationFailedError({ id: 'must be a UUID' }),
  });

function statsQuery(req: Request): StatisticsQuery {
  return {
    from: queryParam(req, 'from'),
    to: queryParam(req, 'to'),
    granularity: queryParam(req, 'granularity'),
    tz: queryParam(req, 'tz'),
  };
}

/** Documents the shared query of both statistics routes. */
function StatsQueryDocs(): MethodDecorator {
  return (target, key, descriptor) => {
    for (const q of RANGE_QUERY) {
      ApiQuery({
        name: q.name,
        required: false,
        description: q.description,
        schema: { type: 'string', format: q.format },
      })(target, key, descriptor);
    }
    ApiQuery({
      name: 'granularity',
      required: false,
      enum: ['hour', 'day', 'month'],
      description: 'Default day; hour covers at most 31 days',
    })(target, key, descriptor);
    ApiQuery({
      name: 'tz',
      required: false,
      description:
        'IANA time zone of the buckets, matched case-insensitively (the answer gives its canonical spelling); default Europe/Berlin',
    })(target, key, descriptor);
  };
}

@ApiTags('code')
@ApiCookieAuth('session')
@ApiBearerAuth('apiKey')
@Controller('api/code')
export class StatisticsController {
  constructor(private readonly stats: StatisticsService) {}

  @Get(':id/statistics')
  @RequireUser()
  @ApiOperation({
    operationId: 'getShortStatistics',
    summary:
      'Visits, unique visitors and bots of a short over time, with top lists (owner or admin)',
  })
  @ApiParam({ name: 'id', description: "The short's id (UUID)", format: 'uuid' })
  @StatsQueryDocs()
  @ApiOkResponse({ type: StatisticsDto })
  @ApiProblems(400, 401, 403, 404)
  getShortStatistics(
    @Param('id', shortId()) id: string,
    @Req() req: Request,
    @CurrentActor() actor: Actor | null,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StatisticsDto> {
    res.setHeader('Cache-Control', 'no-store');
    return this.stats.forShort(id, actor, statsQuery(req));
  }

  @Get(':id/statistics.csv')
  @RequireUser()
  @ApiOperation({
    operationId: 'getShortStatisticsCsv',
    summary: 'The same series as CSV: start,visits,visitors,bots (owner or admin)',
  })
  @ApiParam({ name: 'id', description: "The short's id (UUID)", format: 'uuid' })
  @StatsQueryDocs()
  @ApiOkResponse({ content: { 'text/csv': { schema: { type: 'string' } } } })
  @ApiProblems(400, 401, 403, 404)
  async getShortStatisticsCsv(
    @Param('id', shortId()) id: string,
    @Req() req: Request,
    @CurrentActor() actor: Actor | null,
    @Res() res: Response,
  ): Promise<void> {
    const csv = await this.stats.csvForShort(id, actor, statsQuery(req));
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Disposition', 'attachment; filename="statistics.csv"');
    res.type('text/csv; charset=utf-8').send(csv);
  }
}
