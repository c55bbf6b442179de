import { expect } from 'vitest';
import { expectProblem } from './problem';

/**
 * Sends `tries` creates at once (a race at a per-user or per-team cap) and asserts the cap held:
 * exactly `created` answers are 201, every other one a 409 problem with `quota_exceeded` whose
 * detail names the cap, and `stored()` (the rows counted in the database, or through the API)
 * finds `cap` afterwards. Answers the responses.
 */
export async function expectCapHoldsUnderRace(opts: {
  tries: number;
  created: number;
  cap: number;
  create: (i: number) => Promise<Response>;
  stored: () => Promise<number>;
}): Promise<Response[]> {
  const answers = await Promise.all(Array.from({ length: opts.tries }, (_, i) => opts.create(i)));
  const statuses = answers.map((r) => r.status);
  expect(statuses.filter((s) => s === 201)).toHaveLength(opts.created);
  expect(statuses.filter((s) => s === 409)).toHaveLength(opts.tries - opts.created);
  for (const r of answers.filter((x) => x.status === 409)) {
    const p = await expectProblem(r, 409);
    expect(p.errorKey).toBe('quota_exceeded');
    expect(p.detail).toContain(String(opts.cap));
  }
  expect(await opts.stored()).toBe(opts.cap);
  return answers;
}

/** A `SELECT COUNT(*) AS n …` answer's count (engines answer a number or a string). */
export function countOf(rows: Array<{ n: number | string }>): number {
  return Number(rows[0].n);
}
