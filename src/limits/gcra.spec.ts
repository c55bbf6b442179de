import { describe, expect, it } from 'vitest';
import { gcra } from './gcra';
import { type LimitRule, parseLimitRules } from '../config/limit-rule';
import { clientLimitKey } from './rate-limit.service';

const rules = (text: string) => parseLimitRules(text) as LimitRule[];

/** Runs `times` requests of `n` at `now`, storing the tats as the limiter does. */
function run(r: LimitRule[], state: { tats: number[] }, now: number, times: number, n = 1) {
  let allowed = 0;
  let lastWait = 0;
  for (let i = 0; i < times; i++) {
    const d = gcra(r, state.tats, now, n);
    if (d.allowed) {
      allowed++;
      state.tats = d.tats;
    } else lastWait = d.retryAfterMs;
  }
  return { allowed, lastWait };
}

describe('limit rules', () => {
  it('reads comma lists of N/unit and off', () => {
    expect(parseLimitRules('5/min, 50/d')).toEqual([
      { count: 5, windowMs: 60_000, text: '5/min' },
      { count: 50, windowMs: 86_400_000, text: '50/d' },
    ]);
    expect(parseLimitRules('2/s,10/h')).toEqual([
      { count: 2, windowMs: 1000, text: '2/s' },
      { count: 10, windowMs: 3_600_000, text: '10/h' },
    ]);
    expect(parseLimitRules('OFF')).toEqual([]);
  });

  it.each(['', '5', '0/min', '5/week', '-1/s', '5/min,', 'x/d', '1.5/h'])('refuses %j', (raw) => {
    expect(parseLimitRules(raw)).toHaveProperty('error');
  });
});

describe('GCRA', () => {
  it('lets N through at once, then one per window/N', () => {
    const r = rules('5/min');
    const state = { tats: [] as number[] };
    const t0 = 1_000_000;
    expect(run(r, state, t0, 100)).toEqual({ allowed: 5, lastWait: 12_000 });
    expect(run(r, state, t0 + 11_999, 1).allowed).toBe(0);
    expect(run(r, state, t0 + 12_000, 3).allowed).toBe(1);
    // A full window later the whole allowance is back, never more.
    expect(run(r, state, t0 + 12_000 + 60_000, 100).allowed).toBe(5);
  });

  it('a long, steady stream gets the burst, then exactly the rate', () => {
    const r = rules('10/min');
    const state = { tats: [] as number[] };
    const times: number[] = [];
    for (let now = 0; now < 10 * 60_000; now += 700) {
      if (run(r, state, now, 1).allowed) times.push(now);
    }
    // The burst of 10, then one per 6 s (the next 700 ms step after each 6 s).
    expect(times.slice(0, 10)).toEqual([0, 700, 1400, 2100, 2800, 3500, 4200, 4900, 5600, 6300]);
    for (let i = 11; i < times.length; i++) {
      expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(5600);
    }
    // Any window holds at most the burst plus a window's rate (2 N - 1), and the whole run N per
    // minute plus the burst.
    for (const t of times) {
      expect(times.filter((u) => u >= t && u < t + 60_000).length).toBeLessThanOrEqual(19);
    }
    expect(times.length).toBeLessThanOrEqual(10 + 100);
    expect(times.length).toBeGreaterThanOrEqual(10 + 90);
  });

  it('applies every rule: the tightest one decides, the wait is the longest', () => {
    const r = rules('5/min,7/h');
    const state = { tats: [] as number[] };
    expect(run(r, state, 0, 10).allowed).toBe(5);
    expect(run(r, state, 60_000, 10).allowed).toBe(2); // the hour allows 7 in all
    // The hourly rule decides: its 8th slot opens 8 h/7 after the start, 7.6 min from now.
    const { lastWait } = run(r, state, 60_000, 1);
    expect(lastWait).toBeGreaterThanOrEqual((8 * 3_600_000) / 7 - 3_600_000 - 60_000);
    expect(lastWait).toBeLessThan((8 * 3_600_000) / 7 - 3_600_000 - 60_000 + 100);
  });

  it('takes n at once or nothing', () => {
    const r = rules('100/d');
    const state = { tats: [] as number[] };
    expect(run(r, state, 0, 1, 60).allowed).toBe(1);
    const refused = gcra(r, state.tats, 0, 41);
    expect(refused.allowed).toBe(false);
    expect(refused.tats).toEqual(state.tats); // nothing taken
    expect(run(r, state, 0, 1, 40).allowed).toBe(1);
    // More than the rule's N can never pass; the wait says one window.
    expect(gcra(r, [], 0, 101)).toMatchObject({ allowed: false, retryAfterMs: 86_400_000 });
  });
});

describe('client keys', () => {
  it('IPv4 as it is, IPv4-mapped as IPv4, IPv6 by its /64', () => {
    expect(clientLimitKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientLimitKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientLimitKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientLimitKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientLimitKey('2001:db8:1:3::1')).not.toBe(clientLimitKey('2001:db8:1:2::1'));
    expect(clientLimitKey('unknown')).toBe('unknown');
  });
});
