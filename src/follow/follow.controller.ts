import { Controller, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentActor, type Actor } from '../common/actor';
import { ApiProblems } from '../common/api-problems';
import { clientKey } from '../common/request';
import { NoStore } from '../common/no-store';
import { ShortDto } from '../shorts/dto/short.dto';
import { ShortAccessService } from '../shorts/short-access.service';
import { ShortViewService } from '../shorts/short-view.service';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { FollowQueryDto, LookupQueryDto, PostedFollowQueryDto } from './dto/lookup-query.dto';
import { followAndRedirect, followPosted } from './follow-http';
import { asksForDetails } from '../shared/lookup-query';
import { FollowService } from './follow.service';

const BOT_PREVIEW_DESCRIPTION =
  'A bot (crawler, link preview, empty user agent, HEAD) following a short with maxUses: a small preview page without the target; a link-card crawler (Slackbot, Twitterbot, facebookexternalhit, LinkedInBot, Discordbot, WhatsApp, TelegramBot) following a short with a social preview: its card page (og: and twitter: tags; with a refresh to the target unless the short has maxUses). No use is claimed';

/** `/s/{code}` is answered by the server itself, so a follow never waits for the web client. */
@ApiTags('code')
@Controller('s')
export class FollowController {
  constructor(
    private readonly follow: FollowService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':code')
  @ApiOperation({
    operationId: 'followShort',
    summary: 'Follow a short link (same rules as GET /api/code/{code})',
  })
  @ApiFoundResponse({ description: 'Redirect to the target or to the matching /s/{code}/… page' })
  @ApiOkResponse({
    description: BOT_PREVIEW_DESCRIPTION,
    content: { 'text/html': { schema: { type: 'string' } } },
  })
  @ApiProblems()
  followShort(
    @Param('code') code: string,
    @Query() query: FollowQueryDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return followAndRedirect(this.follow, code, query, req, res);
  }

  @Post(':code')
  @ApiOperation({
    operationId: 'followShortWithPassword',
    summary:
      "Follow a password-protected short with the password in the body (the password page's form; same rules and lockout as ?password=)",
    description:
      'Refused (403 cross_site_refused) when the Origin is not this service, or without an Origin when Sec-Fetch-Site is not same-origin (with the session cookie one of them is needed). Answers 303 to where the follow goes.',
  })
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiBody({
    schema: {
      type: 'object',
      properties: { password: { type: 'string', description: "The short's password" } },
    },
  })
  @ApiResponse({
    status: 303,
    description:
      'To the target, or to /s/{code}/password-required (?wrong=true, ?locked=true; ?accept_danger=true kept), /s/{code}/not-found or /s/{code}/potentially-dangerous',
  })
  @ApiOkResponse({
    description: BOT_PREVIEW_DESCRIPTION,
    content: { 'text/html': { schema: { type: 'string' } } },
  })
  @ApiProblems(400, 403, 404, 413, 415)
  followShortWithPassword(
    @Param('code') code: string,
    @Query() query: PostedFollowQueryDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return followPosted(this.follow, code, query, req, res, this.config.baseUrl);
  }
}

/**
 * `GET /api/code/{code}`: the same follow as `/s/{code}`, or with `redirect=false` the short's
 * details (the info page). Registered after the transfer module's literal paths (export).
 */
@ApiTags('code')
@ApiExtraModels(ShortDto)
@Controller('api/code')
export class ShortFollowController {
  constructor(
    private readonly follow: FollowService,
    private readonly shorts: ShortViewService,
    private readonly access: ShortAccessService,
  ) {}

  // The path parameter is named `id` like DELETE's (OpenAPI forbids one path template with two
  // parameter names, and the web client calls both api/code/{id}). Here it carries the short's code.
  @Get(':id')
  @ApiOperation({
    operationId: 'getOrFollowShort',
    summary: 'Follow a short (302), or with redirect=false return its details',
  })
  @ApiParam({ name: 'id', description: "The short's code (not its UUID)", example: 'aB3dE5f' })
  @ApiOkResponse({
    description:
      'With redirect=false: the Short. A bot following a short with maxUses: a small preview page (text/html, no target). A link-card crawler following a short with a social preview: its card page (text/html)',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(ShortDto) } },
      'text/html': { schema: { type: 'string' } },
    },
  })
  @ApiFoundResponse({ description: 'Redirect to the target or to the matching /s/{code}/… page' })
  @ApiProblems(403, 404, 429)
  @NoStore()
  async getOrFollowShort(
    @Param('id') code: string,
    @Query() query: LookupQueryDto,
    @Req() req: Request,
    @Res() res: Response,
    @CurrentActor() actor: Actor | null,
  ): Promise<void> {
    if (!asksForDetails(query.redirect))
      return followAndRedirect(this.follow, code, query, req, res);
    const dto = await this.shorts.info(
      code,
      actor,
      query.password,
      clientKey(req),
      this.access.requestDomain(req.headers.host, query.domain),
    );
    res.json(dto);
  }
}
