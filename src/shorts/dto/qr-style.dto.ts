import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  QR_EC_LEVELS,
  QR_MARGIN_MAX,
  QR_MIN_CONTRAST,
  type QrEcLevel,
} from '../../shared/qr-style';

/** What a style says, for both of its schemas. */
export const QR_STYLE_DESCRIPTION = `The default style of the short's QR code (\`qr.svg\`, \`qr.png\`), used where their query names none of its parts; the colours must have a contrast ratio (WCAG) of at least ${QR_MIN_CONTRAST}:1 (else \`qr_contrast\`)`;

/** A short's `qrStyle` as a create, an edit or an import takes it (shared/qr-style.ts). */
export class QrStyleInputDto {
  @ApiPropertyOptional({
    pattern: '^#?[0-9a-fA-F]{6}$',
    description: 'The modules’ colour, six hex digits (`#` optional); default `000000`',
    example: '#1d3557',
  })
  fg?: string;

  @ApiPropertyOptional({
    pattern: '^#?[0-9a-fA-F]{6}$',
    description: 'The background’s colour, six hex digits (`#` optional); default `ffffff`',
    example: '#f1faee',
  })
  bg?: string;

  @ApiPropertyOptional({
    enum: QR_EC_LEVELS,
    description: 'Error correction: L, M, Q or H (about 7, 15, 25 or 30 %); default M',
  })
  ec?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: QR_MARGIN_MAX,
    description: 'The quiet zone in modules; default 4',
  })
  margin?: number;
}

/** A short's `qrStyle` as its answer shows it: normalised (colours lower-case without `#`). */
export class QrStyleDto {
  @ApiProperty({ pattern: '^[0-9a-f]{6}$', example: '1d3557' })
  fg: string;

  @ApiProperty({ pattern: '^[0-9a-f]{6}$', example: 'f1faee' })
  bg: string;

  @ApiProperty({ enum: QR_EC_LEVELS })
  ec: QrEcLevel;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: QR_MARGIN_MAX })
  margin: number;
}
