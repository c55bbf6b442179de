import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiProblems } from '../common/api-problems';
import { clientKey } from '../common/request';
import { DomainQueryDto } from '../follow/dto/lookup-query.dto';
import { QrPngQueryDto } from './dto/qr-png-query.dto';
import { type QrImage, QrService } from './qr.service';
import { ShortAccessService } from '../shorts/short-access.service';
import { ShortViewService } from '../shorts/short-view.service';
import { Scope } from '../common/auth.guard';

const NOT_MODIFIED = {
  status: 304,
  description: 'The image of the If-None-Match ETag is still current',
};

/**
 * QR codes of shorts: public for every short a visitor may see, cached for a day. A render (not a
 * cached image) takes from the client's LIMIT_QR_RENDER (429); a busy PNG renderer answers 503.
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
  @ApiProblems(404, 429)
  async getShortQrSvg(
    @Param('code') code: string,
    @Query() { domain }: DomainQueryDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const short = await this.visible(code, domain, req);
    send(
      req,
      res,
      await this.qr.svg(this.shorts.shortUrl(short.code, short.domain), clientKey(req)),
    );
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
    @Query() { size, domain }: QrPngQueryDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const short = await this.visible(code, domain, req);
    const link = this.shorts.shortUrl(short.code, short.domain);
    send(req, res, await this.qr.png(link, size, clientKey(req)));
  }

  /** The short a QR code is asked for: visible, on the request's domain (or the one it names). */
  private visible(code: string, domain: string | undefined, req: Request) {
    return this.access.findVisible(code, this.access.requestDomain(req.headers.host, domain));
  }
}

function send(req: Request, res: Response, image: QrImage): void {
  res.setHeader('Cache-Control', 'public, max-age=86400');
  res.setHeader('ETag', image.etag);
  const inm = req.headers['if-none-match'];
  if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === image.etag)) {
    res.status(304).end();
    return;
  }
  res.type(image.type).send(image.body);
}
