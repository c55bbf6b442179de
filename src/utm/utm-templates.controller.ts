import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentActor, type Actor } from '../common/actor';
import { ApiProblems } from '../common/api-problems';
import { Scope } from '../common/auth.guard';
import { NoStore } from '../common/no-store';
import { ApiIdParam, NoContent, UserRoute, uuidParam } from '../common/routes';
import { LIMIT_UTM_TEMPLATES } from '../shared/utm';
import {
  CreateUtmTemplateDto,
  UtmTemplateDto,
  UtmTemplateListQueryDto,
} from './dto/utm-template.dto';
import { UtmTemplateService } from './utm-template.service';

const uuid = uuidParam();

/** UTM templates (CONTRACT "Marketing links", bullet "UTM"). */
@ApiTags('utm-templates')
@Controller('api/utm-templates')
export class UtmTemplatesController {
  constructor(private readonly templates: UtmTemplateService) {}

  @Get()
  @UserRoute()
  @Scope('shorts:read')
  @ApiOperation({
    operationId: 'listUtmTemplates',
    summary: 'The caller’s own UTM templates and his teams’, or one team’s (`?team=`, members)',
  })
  @ApiOkResponse({ type: [UtmTemplateDto] })
  @ApiProblems(400, 403)
  @NoStore()
  listUtmTemplates(
    @Query() query: UtmTemplateListQueryDto,
    @CurrentActor() actor: Actor | null,
  ): Promise<UtmTemplateDto[]> {
    return this.templates.list(actor, query.team);
  }

  @Post()
  @UserRoute()
  @Scope('shorts:write')
  @ApiOperation({
    operationId: 'createUtmTemplate',
    summary: `Save a UTM template (at most ${LIMIT_UTM_TEMPLATES} per user or team: 409 quota_exceeded; \`team\`: owner or editor, else 403 team_forbidden)`,
  })
  @ApiBody({ type: CreateUtmTemplateDto })
  @ApiCreatedResponse({ type: UtmTemplateDto })
  @ApiProblems(400, 403, 409, 413, 415, 429)
  createUtmTemplate(
    @Body() dto: CreateUtmTemplateDto,
    @CurrentActor() actor: Actor | null,
  ): Promise<UtmTemplateDto> {
    return this.templates.create(dto, actor);
  }

  @Delete(':id')
  @NoContent()
  @UserRoute()
  @Scope('shorts:write')
  @ApiOperation({
    operationId: 'deleteUtmTemplate',
    summary: 'Delete a UTM template (its owner, its team’s owners and editors, admins)',
  })
  @ApiIdParam()
  @ApiProblems(400, 403, 404)
  async deleteUtmTemplate(
    @Param('id', uuid) id: string,
    @CurrentActor() actor: Actor | null,
  ): Promise<void> {
    await this.templates.delete(id, actor);
  }
}
