import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Expose, Transform } from 'class-transformer';
import { IsOptional, ValidateBy } from 'class-validator';
import { firstValue } from '../../common/request';
import { withErrorKey } from '../../common/validation';
import { DomainQueryDto } from '../../follow/dto/lookup-query.dto';
import {
  isQrEcLevel,
  isQrMargin,
  QR_EC_LEVELS,
  QR_HEX_PATTERN,
  QR_MARGIN_MAX,
  QR_MIN_CONTRAST,
  type QrEcLevel,
} from '../../shared/qr-style';

/**
 * A parameter of the QR style: its first value, a missing or empty one absent (the short's stored
 * style, else the default, fills it in); anything `valid` refuses is a field error `field_invalid`.
 */
function QueryStylePart(
  doc: Parameters<typeof ApiPropertyOptional>[0],
  read: (text: string) => unknown,
  valid: (value: unknown) => boolean,
  message: string,
): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional(doc),
    Expose(),
    Transform(({ value }: { value: unknown }) => {
      const v = firstValue(value);
      return v === undefined || v === '' ? undefined : read(v);
    }),
    IsOptional(),
    ValidateBy(
      { name: 'qrStyle', validator: { validate: valid, defaultMessage: () => message } },
      withErrorKey('field_invalid'),
    ),
  );
}

const hex = (what: string, fallback: string) =>
  QueryStylePart(
    {
      type: String,
      pattern: QR_HEX_PATTERN.source,
      description: `The colour of the ${what}: six hex digits without \`#\`. Missing: the short’s stored \`qrStyle\`, else \`${fallback}\`. The two colours must have a contrast ratio (WCAG) of at least ${QR_MIN_CONTRAST}:1, else 400 \`qr_contrast\``,
      example: what === 'modules' ? '1d3557' : 'f1faee',
    },
    (text) => text,
    (v) => typeof v === 'string' && QR_HEX_PATTERN.test(v),
    'must be six hex digits without #',
  );

/**
 * The style of a QR code in its query (`fg`, `bg`, `ec`, `margin`; and the lookup's `domain`).
 * Each part the query names overrides the short's stored `qrStyle`, the others come from it (else
 * from the default: black on white, M, 4).
 */
export class QrStyleQueryDto extends DomainQueryDto {
  @hex('modules', '000000')
  fg?: string;

  @hex('background', 'ffffff')
  bg?: string;

  @QueryStylePart(
    {
      type: String,
      enum: [...QR_EC_LEVELS],
      description:
        'Error correction: L, M, Q or H (about 7, 15, 25 or 30 % may be lost). Missing: the short’s stored `qrStyle`, else M',
    },
    (text) => text,
    isQrEcLevel,
    'must be L, M, Q or H',
  )
  ec?: QrEcLevel;

  @QueryStylePart(
    {
      type: 'integer',
      minimum: 0,
      maximum: QR_MARGIN_MAX,
      description:
        'The quiet zone around the code in modules. Missing: the short’s stored `qrStyle`, else 4',
    },
    (text) => (/^\d{1,2}$/.test(text) ? Number(text) : NaN),
    isQrMargin,
    `must be a whole number from 0 to ${QR_MARGIN_MAX}`,
  )
  margin?: number;
}
