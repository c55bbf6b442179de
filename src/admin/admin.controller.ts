import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentActor, type Actor } from '../common/actor';
import { ApiProblems } from '../common/api-problems';
import { RequireAdmin } from '../common/auth.guard';
import { CurrentOrigin, type RequestOrigin } from '../common/request';
import { AdminService, type AdminRow } from './admin.service';
import {
  AdminEntityDto,
  AdminPageDto,
  AdminSearchQueryDto,
  SearchRequestDto,
} from './dto/admin.dto';
import { type Page, pageRequest } from '../common/paging';
import { ADMIN_ENTITY_NAMES } from './query';

const ENTITY_PARAM = {
  name: 'entity',
  enum: ADMIN_ENTITY_NAMES,
};

@ApiTags('admin')
@Controller('api/admin/entity')
@RequireAdmin()
export class AdminController {
  constructor(private readonly admin: AdminService) {}

  @Get()
  @ApiOperation({
    operationId: 'listAdminEntities',
    summary: 'Entities of the admin API with their fields',
  })
  @ApiOkResponse({ type: [AdminEntityDto] })
  listAdminEntities(): AdminEntityDto[] {
    return this.admin.describe();
  }

  @Post(':entity/search')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'searchAdminEntity',
    summary: 'Search an entity with a Lucene-style query (paged)',
  })
  @ApiParam(ENTITY_PARAM)
  @ApiBody({ type: SearchRequestDto })
  @ApiOkResponse({ type: AdminPageDto })
  @ApiProblems(400, 404)
  searchAdminEntity(
    @Param('entity') entity: string,
    @Body() body: SearchRequestDto,
    @Query() query: AdminSearchQueryDto,
  ): Promise<Page<AdminRow>> {
    const page = pageRequest(query, this.admin.pagingOptions(entity));
    return this.admin.search(entity, body?.query_string?.query ?? '', page);
  }

  @Put(':entity/:id')
  @ApiOperation({
    operationId: 'updateAdminEntity',
    summary:
      'Change an entry (editable fields only). Shorts: dangerous/dangerReason set or clear the danger flag ' +
      '(clearing dismisses open reports). Blacklist: a new UUID adds an entry.',
  })
  @ApiParam(ENTITY_PARAM)
  @ApiParam({ name: 'id' })
  @ApiBody({
    schema: { type: 'object', additionalProperties: true, example: { dangerous: false } },
  })
  @ApiOkResponse({
    schema: { type: 'object', additionalProperties: true },
    description: 'The entry after the change',
  })
  @ApiCreatedResponse({
    schema: { type: 'object', additionalProperties: true },
    description: 'The new entry (blacklist: PUT with a new UUID)',
  })
  @ApiProblems(400, 404, 409)
  async updateAdminEntity(
    @Param('entity') entity: string,
    @Param('id') id: string,
    @Body() body: Record<string, unknown>,
    @CurrentActor() actor: Actor,
    @CurrentOrigin() origin: RequestOrigin,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AdminRow> {
    const { row, created } = await this.admin.update(entity, id, body, actor, origin);
    res.status(created ? 201 : 200);
    return row;
  }

  @Delete(':entity/:id')
  @HttpCode(204)
  @ApiOperation({ operationId: 'deleteAdminEntity', summary: 'Delete an entry (API keys: revoke)' })
  @ApiParam(ENTITY_PARAM)
  @ApiParam({ name: 'id' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiProblems(400, 404, 409)
  async deleteAdminEntity(
    @Param('entity') entity: string,
    @Param('id') id: string,
    @CurrentActor() actor: Actor,
  ): Promise<void> {
    await this.admin.remove(entity, id, actor);
  }
}
