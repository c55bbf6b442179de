import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ERROR_KEYS, type ErrorKey, type FieldErrorPath } from '../shared/error-keys';

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
    type: 'object',
    additionalProperties: {
      type: 'array',
      items: { oneOf: [{ type: 'string' }, { type: 'integer', minimum: 0 }] },
    },
    example: { rules: ['rules', 2, 'conditions', 0] },
    description:
      "Where inside a field its error is, where the field's value has parts (the rules): the field's name, then the keys and indexes (from 0) below it. ['rules', 2, 'conditions', 0] is the first condition of the third rule, ['rules', 2, 'url'] the third rule's url, ['rules', 2] the rule itself; a refusal of the whole list has no path. The fieldErrors sentence says the same for people (rule 3, condition 1: …)",
  })
  fieldErrorPaths?: Record<string, FieldErrorPath>;
  @ApiPropertyOptional({
    example: 42,
    description:
      'Seconds until the call may succeed (429 of a rate limit, 503 of a busy QR renderer); also the Retry-After header',
  })
  retryAfter?: number;
  @ApiPropertyOptional({
    type: [String],
    description:
      'The ids the refusal concerns: a bulk edit’s shorts the caller may not write (403 not_owner), that would carry more than 10 tags (400 too_many_tags) or that changed meanwhile (409 bulk_conflict)',
  })
  ids?: string[];
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
    fieldErrorPaths?: Record<string, FieldErrorPath>;
    retryAfter?: number;
    ids?: readonly string[];
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
  if (extra.fieldErrorPaths && Object.keys(extra.fieldErrorPaths).length) {
    p.fieldErrorPaths = extra.fieldErrorPaths;
  }
  if (extra.retryAfter !== undefined) p.retryAfter = extra.retryAfter;
  if (extra.ids !== undefined) p.ids = [...extra.ids];
  return p;
}
