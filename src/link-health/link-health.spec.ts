import { describe, expect, it } from 'vitest';
import { BROKEN_AFTER_FAILURES, isFailureStatus } from '../shared/link-health';
import { type HealthRecord, healthView, UNCHECKED } from '../shorts/short-health';
import { type CheckOutcome, nextHealth } from './link-health';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 25, 12, minute));
const answered = (status: number): CheckOutcome => ({ kind: 'answered', status });
const noAnswer: CheckOutcome = { kind: 'no_answer' };
const uncheckable: CheckOutcome = { kind: 'uncheckable' };

/** The record after these outcomes, one a minute from UNCHECKED. */
function after(...outcomes: CheckOutcome[]): HealthRecord {
  return outcomes.reduce((r, o, i) => nextHealth(r, o, at(i)), UNCHECKED);
}

describe('which statuses count as a failed check', () => {
  it('every 4xx and 5xx except 401, 403 and 429', () => {
    for (const s of [400, 404, 405, 410, 418, 451, 499, 500, 502, 503, 504, 599]) {
      expect(isFailureStatus(s), String(s)).toBe(true);
    }
  });

  it('not 2xx, 3xx, nor 401, 403, 429 (the target is there: it wants a login or limits robots)', () => {
    for (const s of [200, 201, 204, 206, 300, 301, 302, 304, 307, 308, 401, 403, 429]) {
      expect(isFailureStatus(s), String(s)).toBe(false);
    }
  });
});

describe('the link-health state machine', () => {
  it('starts unknown, never checked', () => {
    expect(healthView(UNCHECKED)).toEqual({
      state: 'unknown',
      status: null,
      checkedAt: null,
      failingSince: null,
    });
  });

  it('a success is ok, with its status and time', () => {
    expect(nextHealth(UNCHECKED, answered(200), at(5))).toEqual({
      healthState: 'ok',
      healthStatus: 200,
      healthFailures: 0,
      healthCheckedAt: at(5),
      healthFailingSince: null,
    });
    expect(after(answered(403)).healthState).toBe('ok');
    expect(after(answered(401)).healthState).toBe('ok');
    expect(after(answered(429)).healthState).toBe('ok');
  });

  it('counts failures in a row: unknown with failingSince at the first, broken at the third', () => {
    expect(BROKEN_AFTER_FAILURES).toBe(3);
    const one = after(answered(200), answered(404));
    expect(one).toMatchObject({
      healthState: 'unknown',
      healthStatus: 404,
      healthFailures: 1,
      healthFailingSince: at(1),
      healthCheckedAt: at(1),
    });
    const two = nextHealth(one, noAnswer, at(2));
    expect(two).toMatchObject({
      healthState: 'unknown',
      healthStatus: null,
      healthFailures: 2,
      healthFailingSince: at(1),
    });
    const three = nextHealth(two, answered(500), at(3));
    expect(three).toEqual({
      healthState: 'broken',
      healthStatus: 500,
      healthFailures: 3,
      healthCheckedAt: at(3),
      healthFailingSince: at(1),
    });
    const four = nextHealth(three, answered(502), at(4));
    expect(four).toMatchObject({
      healthState: 'broken',
      healthFailures: 4,
      healthFailingSince: at(1),
    });
  });

  it('no answer is a failure like a 4xx/5xx', () => {
    expect(after(noAnswer, noAnswer, noAnswer)).toMatchObject({
      healthState: 'broken',
      healthStatus: null,
      healthFailures: 3,
      healthFailingSince: at(0),
    });
  });

  it('one success in between starts the count over', () => {
    const r = after(answered(404), answered(404), answered(200), answered(404), answered(404));
    expect(r).toMatchObject({
      healthState: 'unknown',
      healthFailures: 2,
      healthFailingSince: at(3),
    });
  });

  it('a broken link recovers to ok with one success', () => {
    const broken = after(answered(404), answered(404), answered(404));
    expect(broken.healthState).toBe('broken');
    expect(nextHealth(broken, answered(301), at(9))).toEqual({
      healthState: 'ok',
      healthStatus: 301,
      healthFailures: 0,
      healthCheckedAt: at(9),
      healthFailingSince: null,
    });
  });

  it('a target that cannot be checked changes neither state nor count', () => {
    const two = after(answered(404), answered(404));
    const r = nextHealth(two, uncheckable, at(7));
    expect(r).toEqual({ ...two, healthStatus: null, healthCheckedAt: at(7) });
    expect(nextHealth(r, answered(404), at(8)).healthState).toBe('broken');
    expect(after(uncheckable).healthState).toBeNull();
    expect(healthView(after(uncheckable)).state).toBe('unknown');
    expect(after(answered(200), uncheckable).healthState).toBe('ok');
  });

  it('shows times as ISO strings', () => {
    const r = after(answered(404));
    expect(healthView(r)).toEqual({
      state: 'unknown',
      status: 404,
      checkedAt: at(0).toISOString(),
      failingSince: at(0).toISOString(),
    });
  });
});
