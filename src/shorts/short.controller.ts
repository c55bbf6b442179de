import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  ParseUUIDPipe,
  Post,
  Query,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiCookieAuth,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentActor, type Actor } from '../common/actor';
import { ApiProblems } from '../common/api-problems';
import { RequireUser } from '../common/auth.guard';
import { ApiPageResponse, type Page, pageRequest } from '../common/paging';
import { CurrentOrigin, type RequestOrigin } from '../common/request';
import { NoStore } from '../common/no-store';
import { ShortCreateService } from './short-create.service';
import { ShortEditService } from './short-edit.service';
import { ShortViewService } from './short-view.service';
import { CreateShortDto, CreatedShortDto } from './dto/create-short.dto';
import { UpdateShortDto } from './dto/update-short.dto';
import { ShortDto } from './dto/short.dto';
import { OWN_DEFAULT_SORT, OwnShortsQueryDto, type OwnSortField } from './dto/own-shorts-query.dto';

/** Sort allow-list of the own list: API field → query-builder column. */
const OWN_SORTABLE: Record<OwnSortField, string> = {
  id: 's.id',
  domain: 's.domain',
  code: 's.code',
  name: 's.name',
  url: 's.url',
  maxUses: 's.maxUses',
  uses: 's.uses',
  createdAt: 's.createdAt',
  expireAt: 's.expireAt',
  dangers: 's.dangerous',
  // the statistics' expression (ShortViewService.visitsOrder), filled in per request
  visits: '',
};

@ApiTags('code')
@ApiExtraModels(ShortDto)
@Controller('api/code')
export class ShortController {
  constructor(
    private readonly create: ShortCreateService,
    private readonly view: ShortViewService,
    private readonly edit: ShortEditService,
  ) {}

  @Get()
  @RequireUser()
  @ApiCookieAuth('session')
  @ApiBearerAuth('apiKey')
  @ApiOperation({
    operationId: 'listOwnShorts',
    summary: 'The caller’s own shorts (expired and exhausted included)',
  })
  @ApiPageResponse(ShortDto)
  @ApiProblems(400)
  @NoStore()
  async listOwnShorts(
    @Query() query: OwnShortsQueryDto,
    @CurrentActor() actor: Actor,
  ): Promise<Page<ShortDto>> {
    const sortable = { ...OWN_SORTABLE, visits: this.view.visitsOrder('s') };
    const page = pageRequest(query, { sortable, defaultSort: [OWN_DEFAULT_SORT] });
    return this.view.listOwn(actor.id, page, {
      search: query.search,
      domain: query.domain,
      health: query.health,
    });
  }

  @Post()
  @ApiOperation({
    operationId: 'createShort',
    summary: 'Create a short (anonymous: url and password only, 24 h)',
  })
  @ApiBody({ type: CreateShortDto })
  @ApiCreatedResponse({ type: CreatedShortDto })
  @ApiProblems(400, 409, 413, 415, 429)
  async createShort(
    @Body() dto: CreateShortDto,
    @CurrentActor() actor: Actor | null,
    @CurrentOrigin() origin: RequestOrigin,
  ): Promise<CreatedShortDto> {
    const { code, shortUrl } = await this.create.create(dto, actor, origin);
    return { code, shortUrl };
  }

  @Patch(':id')
  @ApiParam({ name: 'id', description: "The short's id (UUID)", format: 'uuid' })
  @ApiOperation({
    operationId: 'updateShort',
    summary: 'Edit a short (owner or admin): url, code, name, expireAt, maxUses, password',
  })
  @ApiBody({ type: UpdateShortDto })
  @ApiOkResponse({ type: ShortDto, description: 'The short after the change' })
  @ApiProblems(400, 401, 403, 404, 409)
  async updateShort(
    @Param('id', new ParseUUIDPipe({ version: '4' })) id: string,
    @Body() dto: UpdateShortDto,
    @CurrentActor() actor: Actor | null,
    @CurrentOrigin() origin: RequestOrigin,
  ): Promise<ShortDto> {
    return this.edit.update(id, dto, actor, origin);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiParam({ name: 'id', description: "The short's id (UUID)", format: 'uuid' })
  @ApiOperation({ operationId: 'deleteShort', summary: 'Delete a short (owner or admin)' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiProblems(400, 401, 403, 404)
  async deleteShort(
    @Param('id', new ParseUUIDPipe({ version: '4' })) id: string,
    @CurrentActor() actor: Actor | null,
  ): Promise<void> {
    await this.edit.delete(id, actor);
  }
}
