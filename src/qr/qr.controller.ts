import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiProblems } from '../common/api-problems';
import { ValidationFailedError } from '../common/errors';
import { clientKey, queryParam } from '../common/request';
import {
  QR_DEFAULT_SIZE,
  QR_MAX_SIZE,
  QR_MIN_SIZE,
  QR_PNG_SIZES,
  type QrImage,
  QrService,
} from './qr.service';
import { ShortService } from '../shorts/short.service';

function sizeOf(raw: string | undefined): number {
  if (raw === undefined || raw === '') return QR_DEFAULT_SIZE;
  const size = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
  if (!(size >= QR_MIN_SIZE && size <= QR_MAX_SIZE)) {
    throw new ValidationFailedError({
      size: `must be a whole number from ${QR_MIN_SIZE} to ${QR_MAX_SIZE}`,
    });
  }
  return size;
}

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
    private readonly shorts: ShortService,
    private readonly qr: QrService,
  ) {}

  @Get(':code/qr.svg')
  @ApiOperation({ operationId: 'getShortQrSvg', summary: 'QR code of {BASE_URL}/s/{code} (SVG)' })
  @ApiParam({ name: 'code', type: String })
  @ApiOkResponse({ content: { 'image/svg+xml': { schema: { type: 'string' } } } })
  @ApiResponse(NOT_MODIFIED)
  @ApiProblems(404, 429)
  async getShortQrSvg(
    @Param('code') code: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const short = await this.shorts.findVisible(code);
    send(req, res, await this.qr.svg(this.shorts.shortUrl(short.code), clientKey(req)));
  }

  @Get(':code/qr.png')
  @ApiOperation({ operationId: 'getShortQrPng', summary: 'QR code of {BASE_URL}/s/{code} (PNG)' })
  @ApiParam({ name: 'code', type: String })
  @ApiQuery({
    name: 'size',
    required: false,
    schema: { type: 'integer', minimum: QR_MIN_SIZE, maximum: QR_MAX_SIZE, default: 512 },
    description: `Width and height in pixels, rounded up to the next of ${QR_PNG_SIZES.join(', ')} (the PNG has that size)`,
  })
  @ApiOkResponse({ content: { 'image/png': { schema: { type: 'string', format: 'binary' } } } })
  @ApiResponse(NOT_MODIFIED)
  @ApiProblems(400, 404, 429)
  async getShortQrPng(
    @Param('code') code: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const size = sizeOf(queryParam(req, 'size'));
    const short = await this.shorts.findVisible(code);
    send(req, res, await this.qr.png(this.shorts.shortUrl(short.code), size, clientKey(req)));
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
