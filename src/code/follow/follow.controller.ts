import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiFoundResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiProblems } from '../../common/api-problems';
import { followAndRedirect } from './follow-http';
import { FollowService } from './follow.service';

/** `/s/{code}` is answered by the server itself, so a follow never waits for the web client. */
@ApiTags('code')
@Controller('s')
export class FollowController {
  constructor(private readonly follow: FollowService) {}

  @Get(':code')
  @ApiOperation({
    operationId: 'followShort',
    summary: 'Follow a short link (same rules as GET /api/code/{code})',
  })
  @ApiQuery({ name: 'password', required: false })
  @ApiQuery({ name: 'accept_danger', required: false, enum: ['true'] })
  @ApiFoundResponse({ description: 'Redirect to the target or to the matching /s/{code}/… page' })
  @ApiOkResponse({
    description: 'A bot following a short with maxUses: a small preview page (no target in it)',
    content: { 'text/html': { schema: { type: 'string' } } },
  })
  @ApiProblems()
  followShort(
    @Param('code') code: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return followAndRedirect(this.follow, code, req, res);
  }
}
