import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { PasswordLimiter } from './password-limiter';

describe('PasswordLimiter', () => {
  it('locks a short/client pair after maxTries failures, for lockMs', async () => {
    const l = new PasswordLimiter(3, 1000);
    const t0 = 1_000_000;
    await l.fail('s', 'c', t0);
    await l.fail('s', 'c', t0);
    expect(await l.isLocked('s', 'c', t0)).toBe(false);
    await l.fail('s', 'c', t0);
    expect(await l.isLocked('s', 'c', t0 + 1)).toBe(true);
    expect(await l.isLocked('s', 'other-client', t0 + 1)).toBe(false);
    expect(await l.isLocked('other-short', 'c', t0 + 1)).toBe(false);
    expect(await l.isLocked('s', 'c', t0 + 1001)).toBe(false);
  });

  it('a success clears the count', async () => {
    const l = new PasswordLimiter(2, 1000);
    await l.fail('s', 'c');
    await l.succeed('s', 'c');
    await l.fail('s', 'c');
    expect(await l.isLocked('s', 'c')).toBe(false);
  });

  it('check: right clears the count, wrong counts, locked computes no hash', async () => {
    const l = new PasswordLimiter(2, 60_000);
    const stored = await hash('secret');
    expect(await l.check('s', 'c', stored, 'nope')).toBe('wrong');
    expect(await l.check('s', 'c', stored, 'secret')).toBe('right');
    expect(await l.check('s', 'c', stored, 'nope')).toBe('wrong');
    expect(await l.check('s', 'c', stored, 'nope')).toBe('wrong');
    expect(await l.isLocked('s', 'c')).toBe(true);
    // Locked: even the right password is not checked (a hash that is no hash would throw).
    expect(await l.check('s', 'c', 'not-a-hash', 'secret')).toBe('locked');
    expect(await l.check('s', 'other-client', stored, 'secret')).toBe('right');
  });
});
