import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ERROR_KEYS, type ErrorKey } from '../shared/error-keys';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** RFC 9457 problem details, plus `error` (= detail) for ShareX's `{json:error}`. */
export class Problem {
  @ApiProperty({ example: 'about:blank' })
  type: string;
  @ApiProperty({ example: 'Bad Request' })
  title: string;
  @ApiProperty({ example: 400 })
  status: number;
  @ApiProperty({ example: 'Code already exists' })
  detail: string;
  @ApiProperty({ description: 'Same text as detail (ShareX reads {json:error})' })
  error: string;
  @ApiProperty({
    enum: [...ERROR_KEYS],
    enumName: 'ErrorKey',
    example: 'entity_not_exists',
    description: 'What went wrong, as a stable key (clients translate it; detail stays English)',
  })
  errorKey: ErrorKey;
  @ApiProperty({ example: '/api/code' })
  instance: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'One message per invalid field',
  })
  fieldErrors?: Record<string, string>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', enum: [...ERROR_KEYS] },
    description: 'The stable key of a field error, where the field has one (as errorKey)',
  })
  fieldErrorKeys?: Record<string, ErrorKey>;
  @ApiPropertyOptional({
    example: 42,
    description:
      'Seconds until the call may succeed (429 of a rate limit, 503 of a busy QR renderer); also the Retry-After header',
  })
  retryAfter?: number;
}

export function problem(
  status: number,
  title: string,
  detail: string,
  instance: string,
  extra: {
    errorKey: ErrorKey;
    fieldErrors?: Record<string, string>;
    fieldErrorKeys?: Record<string, ErrorKey>;
    retryAfter?: number;
  },
): Problem {
  const { errorKey } = extra;
  const p: Problem = {
    type: 'about:blank',
    title,
    status,
    detail,
    error: detail,
    errorKey,
    instance,
  };
  if (extra.fieldErrors) p.fieldErrors = extra.fieldErrors;
  if (extra.fieldErrorKeys && Object.keys(extra.fieldErrorKeys).length) {
    p.fieldErrorKeys = extra.fieldErrorKeys;
  }
  if (extra.retryAfter !== undefined) p.retryAfter = extra.retryAfter;
  return p;
}
