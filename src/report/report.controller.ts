import { Body, Controller, Get, Headers, Param, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { DomainQueryDto } from '../follow/dto/lookup-query.dto';
import { CurrentActor, type Actor } from '../common/actor';
import { ApiProblems } from '../common/api-problems';
import { ApiIdParam, PostAction, uuidParam } from '../common/routes';
import { RequireUser, Scope } from '../common/auth.guard';
import { NoStore } from '../common/no-store';
import { CreateReportDto, OwnerReportDto, ReportCreatedDto } from './dto/report.dto';
import { ReportService } from './report.service';

@ApiTags('code')
@Controller('api/code')
export class ReportController {
  constructor(private readonly reports: ReportService) {}

  @PostAction(':code/report')
  @RequireUser()
  @ApiOperation({
    operationId: 'reportShort',
    summary: 'Report a short (login required; one report per user and short)',
  })
  @ApiParam({ name: 'code' })
  @ApiBody({ type: CreateReportDto })
  @ApiOkResponse({ type: ReportCreatedDto })
  @ApiProblems(400, 401, 403, 404, 409)
  async reportShort(
    @Param('code') code: string,
    @Body() dto: CreateReportDto,
    @CurrentActor() actor: Actor | null,
    @Headers('host') host: string | undefined,
    @Query() { domain }: DomainQueryDto,
  ): Promise<ReportCreatedDto> {
    await this.reports.report(code, dto, actor, host, domain);
    return { success: true };
  }

  @Get(':id/reports')
  @RequireUser()
  @Scope('shorts:read')
  @ApiOperation({
    operationId: 'listShortReports',
    summary: "The short's reports for its owner or an admin (newest first; never the reporter)",
  })
  @ApiIdParam("The short's id (UUID)")
  @ApiOkResponse({ type: [OwnerReportDto] })
  @ApiProblems(400, 401, 403, 404)
  @NoStore()
  listShortReports(
    @Param('id', uuidParam()) id: string,
    @CurrentActor() actor: Actor | null,
  ): Promise<OwnerReportDto[]> {
    return this.reports.forOwner(id, actor);
  }
}
