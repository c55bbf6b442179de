import { AccessPolicy } from '../access/access-policy';
import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentActor, type Actor } from '../common/actor';
import { ApiProblems } from '../common/api-problems';
import { ApiIdParam, NoContent, UserRoute, uuidParam } from '../common/routes';
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
import { Scope } from '../common/auth.guard';

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
    private readonly policy: AccessPolicy,
  ) {}

  @Get()
  @UserRoute()
  @Scope('shorts:read')
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
    const team = await this.policy.readableTeam(actor, query.team);
    const filter = {
      search: query.search,
      domain: query.domain,
      health: query.health,
      tags: query.tag,
    };
    return team === null
      ? this.view.listOwn({ ownerId: actor.id }, page, filter, actor.username)
      : this.view.listOwn({ teamId: team }, page, filter);
  }

  @Post()
  @Scope('shorts:write')
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
  @ApiIdParam("The short's id (UUID)")
  @Scope('shorts:write')
  @ApiOperation({
    operationId: 'updateShort',
    summary: 'Edit a short (owner or admin): url, code, name, expireAt, maxUses, password',
  })
  @ApiBody({ type: UpdateShortDto })
  @ApiOkResponse({ type: ShortDto, description: 'The short after the change' })
  @ApiProblems(400, 401, 403, 404, 409)
  async updateShort(
    @Param('id', uuidParam()) id: string,
    @Body() dto: UpdateShortDto,
    @CurrentActor() actor: Actor | null,
    @CurrentOrigin() origin: RequestOrigin,
  ): Promise<ShortDto> {
    return this.edit.update(id, dto, actor, origin);
  }

  @Delete(':id')
  @NoContent('Deleted')
  @ApiIdParam("The short's id (UUID)")
  @Scope('shorts:write')
  @ApiOperation({ operationId: 'deleteShort', summary: 'Delete a short (owner or admin)' })
  @ApiProblems(400, 401, 403, 404)
  async deleteShort(
    @Param('id', uuidParam()) id: string,
    @CurrentActor() actor: Actor | null,
  ): Promise<void> {
    await this.edit.delete(id, actor);
  }
}
