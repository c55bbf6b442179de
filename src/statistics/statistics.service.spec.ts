import { describe, expect, it, vi } from 'vitest';
import type { DataSource } from 'typeorm';
import type { ShortService } from '../code/short.service';
import { ValidationFailedError } from '../common/errors';
import { toProblem } from '../common/problem.filter';
import { type StatisticsQuery, StatisticsService } from './statistics.service';
import { bucketStarts } from './zoned';

const service = new StatisticsService({} as DataSource, {} as ShortService);
const NOW = Date.UTC(2026, 5, 15, 10, 17);

/** The fieldErrors of a refused query (fails when the query is accepted). */
function refused(q: StatisticsQuery): Record<string, string> {
  try {
    service.parse(q, NOW);
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationFailedError);
    return (err as ValidationFailedError).fieldErrors;
  }
  throw new Error(`accepted: ${JSON.stringify(q)}`);
}

describe('StatisticsService.parse', () => {
  it('answers the time zone in its canonical spelling, whatever the case', () => {
    expect(service.parse({ tz: 'EUROPE/BERLIN' }, NOW).tz).toBe('Europe/Berlin');
    expect(service.parse({ tz: 'america/santiago' }, NOW).tz).toBe('America/Santiago');
    expect(service.parse({}, NOW).tz).toBe('Europe/Berlin');
    expect(refused({ tz: 'Mars/Olympus' }).tz).toBeDefined();
    expect(refused({ tz: 'x'.repeat(500) }).tz).toBeDefined();
  });

  it('every error carries an errorKey: validation_failed with the fieldErrors, a bug internal_error', () => {
    let problem;
    try {
      service.parse({ granularity: 'week', tz: 'nowhere' }, NOW);
    } catch (err) {
      problem = toProblem(err, '/api/code/x/statistics').body;
    }
    expect(problem).toMatchObject({
      status: 400,
      detail: 'Validation failed',
      errorKey: 'validation_failed',
      fieldErrors: { granularity: expect.any(String), tz: expect.any(String) },
    });
    // What the bucket loop throws when it would pass its bound: a 500 that says nothing more.
    let tooMany: unknown;
    try {
      vi.spyOn(
        Intl.DateTimeFormat.prototype as unknown as { readonly format: unknown },
        'format',
        'get',
      ).mockReturnValue(() => '1/1/1970, 00:00:00');
      bucketStarts(Date.UTC(2026, 0, 1), Date.UTC(2026, 1, 1), 'day', 'UTC');
    } catch (err) {
      tooMany = err;
    } finally {
      vi.restoreAllMocks();
    }
    expect(tooMany).toBeInstanceOf(Error);
    expect(toProblem(tooMany, '/api/code/x/statistics')).toMatchObject({
      kind: 'unexpected',
      body: { status: 500, detail: 'An unexpected error occurred', errorKey: 'internal_error' },
    });
  });
});
