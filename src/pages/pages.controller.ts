import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope } from '../common/auth.guard';
import { CurrentActor, type Actor } from '../common/actor';
import { ApiProblems } from '../common/api-problems';
import { NoStore } from '../common/no-store';
import { ApiIdParam, NoContent, UserRoute, uuidParam } from '../common/routes';
import { StatisticsQueryDto } from '../statistics/statistics-query.dto';
import { StatisticsDto } from '../statistics/statistics.dto';
import { CreatePageDto, PageDto, PageListQueryDto, UpdatePageDto } from './dto/page.dto';
import { PageViews } from './page-views';
import { PagesService } from './pages.service';

const uuid = uuidParam();

/** Link pages (CONTRACT "Marketing links"): a user's or a team's public pages of links. */
@ApiTags('pages')
@Controller('api/pages')
export class PagesController {
  constructor(
    private readonly pages: PagesService,
    private readonly views: PageViews,
  ) {}

  @Get()
  @UserRoute()
  @Scope('shorts:read')
  @ApiOperation({
    operationId: 'listPages',
    summary: 'The caller’s own pages and his teams’, or one team’s (`?team=`, members)',
  })
  @ApiOkResponse({ type: [PageDto] })
  @ApiProblems(400, 403)
  @NoStore()
  listPages(
    @Query() query: PageListQueryDto,
    @CurrentActor() actor: Actor | null,
  ): Promise<PageDto[]> {
    return this.pages.list(actor, query.team);
  }

  @Post()
  @UserRoute()
  @Scope('shorts:write')
  @ApiOperation({
    operationId: 'createPage',
    summary:
      'Publish a page of links at /p/{slug} (slug: the custom-code rules, 400 slug_invalid or slug_reserved, taken: 409 slug_exists; a short the caller may not read in the page’s space: 400 page_link_invalid; more than 50 pages per user or team: 409 quota_exceeded)',
  })
  @ApiBody({ type: CreatePageDto })
  @ApiCreatedResponse({ type: PageDto })
  @ApiProblems(400, 403, 409, 413, 415, 429)
  createPage(@Body() dto: CreatePageDto, @CurrentActor() actor: Actor | null): Promise<PageDto> {
    return this.pages.create(dto, actor);
  }

  @Get(':id')
  @UserRoute()
  @Scope('shorts:read')
  @ApiOperation({ operationId: 'getPage', summary: 'A page (its owner, its team’s members)' })
  @ApiIdParam()
  @ApiOkResponse({ type: PageDto })
  @ApiProblems(400, 403, 404)
  @NoStore()
  getPage(@Param('id', uuid) id: string, @CurrentActor() actor: Actor | null): Promise<PageDto> {
    return this.pages.get(id, actor);
  }

  @Patch(':id')
  @UserRoute()
  @Scope('shorts:write')
  @ApiOperation({
    operationId: 'updatePage',
    summary:
      'Change a page (its owner, its team’s editors and owners); `links` replaces the whole list',
  })
  @ApiIdParam()
  @ApiBody({ type: UpdatePageDto })
  @ApiOkResponse({ type: PageDto })
  @ApiProblems(400, 403, 404, 409, 413, 415)
  updatePage(
    @Param('id', uuid) id: string,
    @Body() dto: UpdatePageDto,
    @CurrentActor() actor: Actor | null,
  ): Promise<PageDto> {
    return this.pages.update(id, dto, actor);
  }

  @Delete(':id')
  @NoContent()
  @UserRoute()
  @Scope('shorts:write')
  @ApiOperation({ operationId: 'deletePage', summary: 'Delete a page, its links and its views' })
  @ApiIdParam()
  @ApiProblems(400, 403, 404)
  async deletePage(
    @Param('id', uuid) id: string,
    @CurrentActor() actor: Actor | null,
  ): Promise<void> {
    await this.pages.delete(id, actor);
  }

  @Get(':id/statistics')
  @UserRoute()
  @Scope('statistics:read')
  @ApiOperation({
    operationId: 'getPageStatistics',
    summary:
      'Views of a page over time in the shape of a short’s statistics: views as `visits`, bots apart (its owner, its team’s members)',
  })
  @ApiIdParam()
  @ApiOkResponse({ type: StatisticsDto })
  @ApiProblems(400, 403, 404)
  @NoStore()
  async getPageStatistics(
    @Param('id', uuid) id: string,
    @Query() query: StatisticsQueryDto,
    @CurrentActor() actor: Actor | null,
  ): Promise<StatisticsDto> {
    const page = await this.pages.managed(id, actor, 'read');
    return this.views.statistics(page.id, query);
  }
}
