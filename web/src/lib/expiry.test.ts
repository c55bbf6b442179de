import { describe, expect, it } from 'vitest';
import { exampleExpiryDate, expiresWithin24h, parseExpiry } from './expiry';

// Sunday, 22 Nov 2026, 10:00 local time.
const REF = new Date(2026, 10, 22, 10, 0, 0);

describe('parseExpiry (German, fixed reference date)', () => {
  it('understands "morgen um 15 Uhr"', async () => {
    const d = await parseExpiry('morgen um 15 Uhr', REF);
    expect(d).not.toBeNull();
    expect([d!.getFullYear(), d!.getMonth(), d!.getDate(), d!.getHours(), d!.getMinutes()]).toEqual(
      [2026, 10, 23, 15, 0],
    );
  });

  it('understands "in 2 Tagen"', async () => {
    const d = await parseExpiry('in 2 Tagen', REF);
    expect([d!.getMonth(), d!.getDate(), d!.getHours()]).toEqual([10, 24, 10]);
  });

  it('reads "12.05.2027" day first', async () => {
    const d = await parseExpiry('12.05.2027', REF);
    expect([d!.getFullYear(), d!.getMonth(), d!.getDate()]).toEqual([2027, 4, 12]);
  });

  it('understands "in 3 Stunden"', async () => {
    const d = await parseExpiry('in 3 Stunden', REF);
    expect(d!.getTime() - REF.getTime()).toBe(3 * 3600_000);
  });

  it('gives null for empty or unparsable text', async () => {
    expect(await parseExpiry('', REF)).toBeNull();
    expect(await parseExpiry('   ', REF)).toBeNull();
    expect(await parseExpiry('irgendwann vielleicht', REF)).toBeNull();
  });
});

describe('expiry warning', () => {
  it('warns within 24 hours of the expiry, never without one', () => {
    const now = REF.getTime();
    expect(expiresWithin24h(new Date(now + 24 * 3600_000).toISOString(), now)).toBe(true);
    expect(expiresWithin24h(new Date(now + 24 * 3600_000 + 1000).toISOString(), now)).toBe(false);
    expect(expiresWithin24h(null, now)).toBe(false);
  });
});

describe('the placeholder example', () => {
  it('is always in the future, and understood as such', async () => {
    for (const now of [new Date(2026, 0, 1), new Date(2026, 4, 12, 23), new Date(2026, 11, 31)]) {
      const text = exampleExpiryDate(now);
      expect(text).toBe(`12.05.${now.getFullYear() + 1}`);
      const d = await parseExpiry(text, now);
      expect(d!.getTime()).toBeGreaterThan(now.getTime());
    }
  });
});
