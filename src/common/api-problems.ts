import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { STATUS_CODES } from 'node:http';
import { PROBLEM_CONTENT_TYPE, Problem } from './problem';

/** Documents problem+json error responses for the given statuses (500 and 503 always included). */
export function ApiProblems(...statuses: number[]): MethodDecorator & ClassDecorator {
  const all = [...new Set([...statuses, 500, 503])].sort((a, b) => a - b);
  return applyDecorators(
    ApiExtraModels(Problem),
    ...all.map((status) =>
      ApiResponse({
        status,
        description:
          status === 429
            ? 'Too Many Requests (a rate limit: errorKey rate_limited, Retry-After in seconds)'
            : (STATUS_CODES[status] ?? 'Error'),
        ...(status === 429 || status === 503
          ? { headers: { 'Retry-After': { description: 'Seconds', schema: { type: 'integer' } } } }
          : {}),
        content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: getSchemaPath(Problem) } } },
      }),
    ),
  );
}
