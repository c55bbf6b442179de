import { QueryInt } from '../../common/query';
import { QrStyleQueryDto } from './qr-style-query.dto';
import { QR_DEFAULT_SIZE, QR_MAX_SIZE, QR_MIN_SIZE, QR_PNG_SIZES } from '../qr.service';

/** `GET /api/code/{code}/qr.png?size=`: 128–2048, default 512 (and the style, the lookup's `domain`). */
export class QrPngQueryDto extends QrStyleQueryDto {
  @QueryInt({
    default: QR_DEFAULT_SIZE,
    minimum: QR_MIN_SIZE,
    maximum: QR_MAX_SIZE,
    digits: 5,
    message: `must be a whole number from ${QR_MIN_SIZE} to ${QR_MAX_SIZE}`,
    description: `Width and height in pixels, rounded up to the next of ${QR_PNG_SIZES.join(', ')} (the PNG has that size)`,
  })
  size: number;
}
