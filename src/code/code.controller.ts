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
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiCookieAuth,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiFoundResponse,
  getSchemaPath,
  ApiNoContentResponse,
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
import { ApiPageResponse, ApiPaging, type Page, parsePageRequest } from '../common/paging';
import { clientKey, CurrentOrigin, queryParam, type RequestOrigin } from '../common/request';
import { followAndRedirect } from './follow/follow-http';
import { FollowService } from './follow/follow.service';
import { VISITS_ORDER } from './short.repository';
import { ShortService } from './short.service';
import { CreateShortDto, CreatedShortDto } from './dto/create-short.dto';
import { UpdateShortDto } from './dto/update-short.dto';
import { ShortDto } from './dto/short.dto';

/** Sort allow-list of the own list: API field → query-builder column. */
const OWN_SORTABLE: Record<string, string> = {
  id: 's.id',
  code: 's.code',
  name: 's.name',
  url: 's.url',
  maxUses: 's.maxUses',
  uses: 's.uses',
  createdAt: 's.createdAt',
  expireAt: 's.expireAt',
  dangers: 's.dangerous',
  visits: VISITS_ORDER,
};
const OWN_SORTABLE_FIELDS = Object.keys(OWN_SORTABLE);

@ApiTags('code')
@ApiExtraModels(ShortDto)
@Controller('api/code')
export class CodeController {
  constructor(
    private readonly shorts: ShortService,
    private readonly follow: FollowService,
  ) {}

  @Get()
  @RequireUser()
  @ApiCookieAuth('session')
  @ApiBearerAuth('apiKey')
  @ApiOperation({
    operationId: 'listOwnShorts',
    summary: 'The caller’s own shorts (expired and exhausted included)',
  })
  @ApiPaging(OWN_SORTABLE_FIELDS, 'createdAt,desc')
  @ApiQuery({
    name: 'search',
    required: false,
    description: 'Matches code, name and url (case-insensitive)',
  })
  @ApiPageResponse(ShortDto)
  @ApiProblems(400)
  async listOwnShorts(
    @Req() req: Request,
    @CurrentActor() actor: Actor,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Page<ShortDto>> {
    const q = req.query as Record<string, unknown>;
    const page = parsePageRequest(q, { sortable: OWN_SORTABLE, defaultSort: ['createdAt,desc'] });
    res.setHeader('Cache-Control', 'no-store');
    return this.shorts.listOwn(actor.id, page, queryParam(req, 'search'));
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
    const { code } = await this.shorts.create(dto, actor, origin);
    return { code };
  }

  // The path parameter is named `id` like DELETE's (OpenAPI forbids one path template with two
  // parameter names, and the web client calls both api/code/{id}). Here it carries the short's code.
  @Get(':id')
  @ApiOperation({
    operationId: 'getOrFollowShort',
    summary: 'Follow a short (302), or with redirect=false return its details',
  })
  @ApiParam({ name: 'id', description: "The short's code (not its UUID)", example: 'aB3dE5f' })
  @ApiQuery({
    name: 'redirect',
    required: false,
    enum: ['false'],
    description: 'false: answer the Short JSON',
  })
  @ApiQuery({ name: 'password', required: false, description: 'Password of a protected short' })
  @ApiQuery({ name: 'accept_danger', required: false, enum: ['true'] })
  @ApiOkResponse({
    description:
      'With redirect=false: the Short. A bot following a short with maxUses: a small preview page (text/html, no target)',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(ShortDto) } },
      'text/html': { schema: { type: 'string' } },
    },
  })
  @ApiFoundResponse({ description: 'Redirect to the target or to the matching /s/{code}/… page' })
  @ApiProblems(403, 404, 429)
  async getOrFollowShort(
    @Param('id') code: string,
    @Req() req: Request,
    @Res() res: Response,
    @CurrentActor() actor: Actor | null,
  ): Promise<void> {
    if (queryParam(req, 'redirect') !== 'false')
      return followAndRedirect(this.follow, code, req, res);
    const dto = await this.shorts.info(code, actor, queryParam(req, 'password'), clientKey(req));
    res.setHeader('Cache-Control', 'no-store');
    res.json(dto);
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
    return this.shorts.update(id, dto, actor, origin);
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
    await this.shorts.delete(id, actor);
  }
}
