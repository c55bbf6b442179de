import { applyDecorators, Body, Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { type Actor, CurrentActor, isAdmin } from '../common/actor';
import { ApiProblems } from '../common/api-problems';
import { NoContent } from '../common/routes';
import { RequireAdmin } from '../common/auth.guard';
import { BadRequestError, ForbiddenError, UnauthorizedError } from '../common/errors';
import { LogService, MANAGEMENT_LEVELS, type ManagementLevel } from '../logging/log.service';
import { MetricsService } from '../metrics/metrics.service';
import { sendMetrics } from '../metrics/scrape-token.middleware';
import {
  HealthReportDto,
  LogEntryDto,
  LoggerLevelDto,
  LoggerParamDto,
  LoggersDto,
  LogsQueryDto,
  RouteMappingDto,
  SetLoggerLevelDto,
} from './dto/management.dto';
import { type HealthGroup, HealthService } from './health.service';
import { ManagementService } from './management.service';
import { NoStore } from '../common/no-store';

/** A health route: public, never stored, 200 when UP and 503 when DOWN. */
function HealthRoute(path: string, operationId: string, summary: string): MethodDecorator {
  return applyDecorators(
    Get(path),
    ApiOperation({ operationId, summary }),
    ApiOkResponse({ type: HealthReportDto }),
    ApiServiceUnavailableResponse({ type: HealthReportDto }),
    NoStore(),
  );
}

@ApiTags('management')
@Controller('management')
export class ManagementController {
  constructor(
    private readonly healthService: HealthService,
    private readonly mgmt: ManagementService,
    private readonly log: LogService,
    private readonly metrics: MetricsService,
  ) {}

  private async answerHealth(
    group: HealthGroup,
    actor: Actor | null,
    res: Response,
  ): Promise<void> {
    const report = await this.healthService.check(group);
    res
      .status(report.status === 'UP' ? 200 : 503)
      .json(isAdmin(actor) ? report : { status: report.status });
  }

  @HealthRoute('health', 'health', 'Overall health (public: status only; admins: components)')
  health(@CurrentActor() actor: Actor | null, @Res() res: Response): Promise<void> {
    return this.answerHealth('all', actor, res);
  }

  @HealthRoute('health/liveness', 'healthLiveness', 'Liveness group (memory); public: status only')
  healthLiveness(@CurrentActor() actor: Actor | null, @Res() res: Response): Promise<void> {
    return this.answerHealth('liveness', actor, res);
  }

  @HealthRoute(
    'health/readiness',
    'healthReadiness',
    'Readiness group (database, disk); public: status only',
  )
  healthReadiness(@CurrentActor() actor: Actor | null, @Res() res: Response): Promise<void> {
    return this.answerHealth('readiness', actor, res);
  }

  @Get('info')
  @RequireAdmin()
  @ApiOperation({ operationId: 'info', summary: 'Version, build time and git commit' })
  @ApiOkResponse({ schema: { type: 'object', additionalProperties: true } })
  info(): Record<string, unknown> {
    return this.mgmt.info();
  }

  @Get('mappings')
  @RequireAdmin()
  @ApiOperation({ operationId: 'mappings', summary: 'Every route with its method and handler' })
  @ApiOkResponse({ type: [RouteMappingDto] })
  mappings(): RouteMappingDto[] {
    return this.mgmt.mappings();
  }

  @Get('env')
  @RequireAdmin()
  @ApiOperation({
    operationId: 'env',
    summary: 'Allow-listed, non-secret settings (secrets masked)',
  })
  @ApiOkResponse({ schema: { type: 'object', additionalProperties: true } })
  env(): Record<string, unknown> {
    return this.mgmt.env();
  }

  @Get('logs')
  @RequireAdmin()
  @ApiOperation({
    operationId: 'logs',
    summary: 'Recent structured log lines from the in-memory ring',
  })
  @ApiOkResponse({ type: [LogEntryDto] })
  @ApiProblems(400)
  logs(@Query() { startDate }: LogsQueryDto): LogEntryDto[] {
    return this.log.recent(startDate ? new Date(startDate) : undefined) as LogEntryDto[];
  }

  @Get('loggers')
  @RequireAdmin()
  @ApiOperation({
    operationId: 'loggers',
    summary: 'Loggers with their configured and effective levels',
  })
  @ApiOkResponse({ type: LoggersDto })
  loggers(): LoggersDto {
    return { levels: [...MANAGEMENT_LEVELS], loggers: this.log.loggers(), groups: {} };
  }

  @Get('loggers/:logger')
  @RequireAdmin()
  @ApiOperation({ operationId: 'logger', summary: 'One logger' })
  @ApiOkResponse({ type: LoggerLevelDto })
  @ApiProblems(400)
  logger(@Param() { logger: name }: LoggerParamDto): LoggerLevelDto {
    return (
      this.log.loggers()[name] ?? {
        configuredLevel: null,
        effectiveLevel: this.log.effectiveLevel(name).toUpperCase() as ManagementLevel,
      }
    );
  }

  @Post('loggers/:logger')
  @NoContent('Changed')
  @RequireAdmin()
  @ApiOperation({
    operationId: 'setLoggerLevel',
    summary: 'Set a logger level at once (null resets)',
  })
  @ApiBody({ type: SetLoggerLevelDto })
  @ApiProblems(400)
  setLoggerLevel(
    @Param() { logger: name }: LoggerParamDto,
    @Body() body: SetLoggerLevelDto,
    @CurrentActor() actor: Actor,
  ): void {
    const raw = body?.configuredLevel;
    const level =
      raw === null || raw === undefined
        ? null
        : MANAGEMENT_LEVELS.find((l) => typeof raw === 'string' && l === raw.toUpperCase());
    if (level === undefined)
      throw new BadRequestError(
        `configuredLevel must be one of ${MANAGEMENT_LEVELS.join(', ')} or null`,
        'log_level_invalid',
      );
    this.log.setLevel(name, level);
    this.log.write(
      'info',
      'management',
      `${actor.username} set logger ${name} to ${level ?? 'default'}`,
    );
  }

  @Get('prometheus')
  @ApiOperation({
    operationId: 'prometheus',
    summary: 'Metrics in the Prometheus text format (admin, or Bearer METRICS_TOKEN)',
  })
  @ApiProduces('text/plain')
  @ApiOkResponse({ schema: { type: 'string' } })
  @ApiProblems(401, 403)
  async prometheus(@CurrentActor() actor: Actor | null, @Res() res: Response): Promise<void> {
    // A request with the scrape token was answered by scrapeTokenMiddleware already.
    if (!actor) throw new UnauthorizedError();
    if (!isAdmin(actor)) throw new ForbiddenError('Admin role required', 'admin_required');
    await sendMetrics(this.metrics, res);
  }
}
