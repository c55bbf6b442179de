import { expect } from 'vitest';
import { isSpecificErrorKey } from '../../src/shared/error-keys';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  error: string;
  instance: string;
  errorKey?: string;
  fieldErrors?: Record<string, string>;
}

/**
 * Asserts a problem+json answer with `status` that leaks nothing of the driver or the stack and
 * names what went wrong by a specific `errorKey` (never one that only repeats the status).
 */
export async function expectProblem(res: Response, status: number): Promise<ProblemBody> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = (await res.json()) as ProblemBody;
  expect(body.status).toBe(status);
  expect(body.error).toBe(body.detail);
  expect(typeof body.title).toBe('string');
  expect(typeof body.instance).toBe('string');
  expect(isSpecificErrorKey(body.errorKey), `errorKey ${body.errorKey}`).toBe(true);
  expect(JSON.stringify(body)).not.toMatch(/SQLITE|ER_|QueryFailed|ECONN|PROTOCOL_|at \w+ \(/);
  return body;
}
