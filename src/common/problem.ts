import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

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
  @ApiPropertyOptional({ example: 'entity_not_exists' })
  errorKey?: string;
  @ApiProperty({ example: '/api/code' })
  instance: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'One message per invalid field',
  })
  fieldErrors?: Record<string, string>;
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
  extra: { errorKey?: string; fieldErrors?: Record<string, string>; retryAfter?: number } = {},
): Problem {
  const p: Problem = { type: 'about:blank', title, status, detail, error: detail, instance };
  if (extra.errorKey) p.errorKey = extra.errorKey;
  if (extra.fieldErrors) p.fieldErrors = extra.fieldErrors;
  if (extra.retryAfter !== undefined) p.retryAfter = extra.retryAfter;
  return p;
}
