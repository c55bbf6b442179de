import { describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import type { ShortService } from '../code/short.service';
import { ValidationFailedError } from '../common/errors';
import { type StatisticsQuery, StatisticsService } from './statistics.service';

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
});
