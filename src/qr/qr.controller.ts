import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiProblems } from '../common/api-problems';
import { clientKey } from '../common/request';
import { QrPngQueryDto } from './dto/qr-png-query.dto';
import { QrStyleQueryDto } from './dto/qr-style-query.dto';
import { namesWholeStyle, type QrImage, QrService, qrStyleOf } from './qr.service';
import { ShortAccessService } from '../shorts/short-access.service';
import { ShortViewService } from '../shorts/short-view.service';
import { Scope } from '../common/auth.guard';

const NOT_MODIFIED = {
  status: 304,
  description: 'The image of the If-None-Match ETag is still current',
};

/**
 * QR codes of shorts: public for every short a visitor may see, in the style the query names (each
 * part it leaves out from the short's stored `qrStyle`, else the default). Cached for a day where
 * the image cannot change (the query names the whole style, or the short is anonymous: nobody can
 * give it a style but an admin); else revalidated by its ETag, so a new stored style shows at
 * once. A render (not a cached image) takes from the client's LIMIT_QR_RENDER (429); a busy PNG
 * renderer answers 503.
 */
@ApiTags('code')
@Controller('api/code')
export class QrController {
  constructor(
    private readonly shorts: ShortViewService,
    private readonly access: ShortAccessService,
    private readonly qr: QrService,
  ) {}

  @Get(':code/qr.svg')
  @Scope('shorts:read')
  @ApiOperation({ operationId: 'getShortQrSvg', summary: 'QR code of {BASE_URL}/s/{code} (SVG)' })
  @ApiParam({ name: 'code', type: String })
  @ApiOkResponse({ content: { 'image/svg+xml': { schema: { type: 'string' } } } })
  @ApiResponse(NOT_MODIFIED)
  @ApiProblems(400, 404, 429)
  async getShortQrSvg(
    @Param('code') code: string,
    @Query() query: QrStyleQueryDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const short = await this.visible(code, query.domain, req);
    const style = qrStyleOf(query, short.qrStyle);
    const link = this.shorts.shortUrl(short.code, short.domain);
    send(req, res, await this.qr.svg(link, style, clientKey(req)), lasting(query, short));
  }

  @Get(':code/qr.png')
  @Scope('shorts:read')
  @ApiOperation({ operationId: 'getShortQrPng', summary: 'QR code of {BASE_URL}/s/{code} (PNG)' })
  @ApiParam({ name: 'code', type: String })
  @ApiOkResponse({ content: { 'image/png': { schema: { type: 'string', format: 'binary' } } } })
  @ApiResponse(NOT_MODIFIED)
  @ApiProblems(400, 404, 429)
  async getShortQrPng(
    @Param('code') code: string,
    @Query() query: QrPngQueryDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const short = await this.visible(code, query.domain, req);
    const style = qrStyleOf(query, short.qrStyle);
    const link = this.shorts.shortUrl(short.code, short.domain);
    const image = await this.qr.png(link, query.size, style, clientKey(req));
    send(req, res, image, lasting(query, short));
  }

  /** The short a QR code is asked for: visible, on the request's domain (or the one it names). */
  private visible(code: string, domain: string | undefined, req: Request) {
    return this.access.findVisible(code, this.access.requestDomain(req.headers.host, domain));
  }
}

/**
 * Whether the image of this request stays the same: the query names the whole style, or the short
 * is anonymous without a stored style (only an admin could give it one).
 */
function lasting(
  query: QrStyleQueryDto,
  short: { ownerId: string | null; qrStyle: string | null },
) {
  return namesWholeStyle(query) || (short.ownerId === null && short.qrStyle === null);
}

function send(req: Request, res: Response, image: QrImage, lasting: boolean): void {
  // Revalidated (304 by the ETag) where the owner may change the stored style.
  res.setHeader('Cache-Control', lasting ? 'public, max-age=86400' : 'public, no-cache');
  res.setHeader('ETag', image.etag);
  const inm = req.headers['if-none-match'];
  if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === image.etag)) {
    res.status(304).end();
    return;
  }
  res.type(image.type).send(image.body);
}
