import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiFoundResponse,
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
import { clientKey, queryParam } from '../common/request';
import { CodeService } from './code.service';
import { CreateShortDto, CreatedShortDto } from './dto/create-short.dto';
import { ShortDto } from './dto/short.dto';
import { followAndRedirect } from './follow';

@ApiTags('code')
@ApiExtraModels(ShortDto)
@Controller('api/code')
export class CodeController {
  constructor(private readonly codes: CodeService) {}

  @Post()
  @ApiOperation({
    operationId: 'createShort',
    summary: 'Create a short (anonymous: url and password only, 24 h)',
  })
  @ApiBody({ type: CreateShortDto })
  @ApiCreatedResponse({ type: CreatedShortDto })
  @ApiProblems(400, 409, 413, 415)
  async createShort(@Body() dto: CreateShortDto, @CurrentActor() actor: Actor | null): Promise<CreatedShortDto> {
    const { code } = await this.codes.create(dto, actor);
    return { code };
  }

  @Get(':code')
  @ApiOperation({
    operationId: 'getOrFollowShort',
    summary: 'Follow a short (302), or with redirect=false return its details',
  })
  @ApiParam({ name: 'code' })
  @ApiQuery({ name: 'redirect', required: false, enum: ['false'], description: 'false: answer the Short JSON' })
  @ApiQuery({ name: 'password', required: false, description: 'Password of a protected short' })
  @ApiQuery({ name: 'accept_danger', required: false, enum: ['true'] })
  @ApiOkResponse({ type: ShortDto, description: 'With redirect=false' })
  @ApiFoundResponse({ description: 'Redirect to the target or to the matching /s/{code}/… page' })
  @ApiProblems(403, 404, 429)
  async getOrFollowShort(
    @Param('code') code: string,
    @Req() req: Request,
    @Res() res: Response,
    @CurrentActor() actor: Actor | null,
  ): Promise<void> {
    if (queryParam(req, 'redirect') !== 'false') return followAndRedirect(this.codes, code, req, res);
    const dto = await this.codes.info(code, actor, queryParam(req, 'password'), clientKey(req));
    res.setHeader('Cache-Control', 'no-store');
    res.json(dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ operationId: 'deleteShort', summary: 'Delete a short (owner or admin)' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiProblems(400, 401, 403, 404)
  async deleteShort(
    @Param('id', new ParseUUIDPipe({ version: '4' })) id: string,
    @CurrentActor() actor: Actor | null,
  ): Promise<void> {
    await this.codes.delete(id, actor);
  }
}
