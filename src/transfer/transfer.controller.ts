import { Body, Controller, Get, Query, StreamableFile } from '@nestjs/common';
import {
  ApiBody,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
  ApiExtraModels,
} from '@nestjs/swagger';
import { CurrentActor, type Actor } from '../common/actor';
import { ApiProblems } from '../common/api-problems';
import { ApiSignedIn, PostAction } from '../common/routes';
import { RequireUser, Scope } from '../common/auth.guard';
import { CurrentOrigin, type RequestOrigin } from '../common/request';
import { validateTopLevel } from '../common/validation';
import { NoStore } from '../common/no-store';
import {
  ExportedShortDto,
  ExportQueryDto,
  ImportResultDto,
  ImportShortsDto,
} from './dto/transfer.dto';
import { TransferService } from './transfer.service';

/**
 * Export and import of the caller's own shorts. Registered before CodeController, so `export` and
 * `import` are not taken for codes (they are reserved words, and the follow matcher leaves them to
 * these routes).
 */
@ApiTags('code')
@ApiSignedIn()
@ApiExtraModels(ExportedShortDto)
@Controller('api/code')
export class TransferController {
  constructor(private readonly transfer: TransferService) {}

  @Get('export')
  @RequireUser()
  @Scope('shorts:read')
  @ApiOperation({
    operationId: 'exportShorts',
    summary:
      'Every own short as CSV or JSON (streamed; CSV cells that look like formulas are escaped)',
  })
  @ApiOkResponse({
    content: {
      'text/csv': { schema: { type: 'string' } },
      'application/json': {
        schema: { type: 'array', items: { $ref: getSchemaPath(ExportedShortDto) } },
      },
    },
  })
  @ApiProblems(400)
  @NoStore()
  async exportShorts(
    @Query() { format, team }: ExportQueryDto,
    @CurrentActor() actor: Actor,
  ): Promise<StreamableFile> {
    const space = await this.transfer.spaceOf(actor, team);
    const stream =
      format === 'csv' ? this.transfer.exportCsv(space) : this.transfer.exportJson(space);
    return new StreamableFile(stream, {
      type: format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
      disposition: `attachment; filename="shorts.${format}"`,
    });
  }

  @PostAction('import')
  @RequireUser()
  @Scope('shorts:write')
  @ApiOperation({
    operationId: 'importShorts',
    summary:
      'Create own shorts from a CSV or rows (ours, Shlink, YOURLS, Kutt, Bitly; at most 5,000 rows and 2 MB)',
  })
  @ApiBody({ type: ImportShortsDto })
  @ApiOkResponse({ type: ImportResultDto })
  @ApiProblems(400, 413, 415, 429)
  async importShorts(
    // Untyped, so the global pipe does not copy every row (see validateTopLevel).
    @Body() body: unknown,
    @CurrentActor() actor: Actor,
    @CurrentOrigin() origin: RequestOrigin,
  ): Promise<ImportResultDto> {
    const dto = await validateTopLevel(ImportShortsDto, body);
    return this.transfer.import(dto, actor, origin);
  }
}
