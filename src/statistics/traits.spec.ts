import { describe, expect, it } from 'vitest';
import { cutValue, MAX_VALUE_LENGTH, REFERRER_HOSTS_MAX, referrerHost } from './traits';

describe('statistics values', () => {
  it('are cut to 100 characters (CONTRACT "Statistics"), never inside a surrogate pair', () => {
    expect(MAX_VALUE_LENGTH).toBe(100);
    expect(cutValue('a'.repeat(300))).toBe('a'.repeat(100));
    expect(cutValue('short')).toBe('short');
    const emoji = '😀'.repeat(150); // 300 UTF-16 units
    expect(Array.from(cutValue(emoji))).toHaveLength(100);
    expect(cutValue(emoji)).toBe('😀'.repeat(100));
  });

  it('a referrer with a 300-character host keeps its first 100 characters', () => {
    const host = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(55)}.example`;
    expect(host.length).toBeGreaterThan(300);
    const stored = referrerHost(`https://www.${host.toUpperCase()}/path?q=1`);
    expect(stored).toBe(host.slice(0, 100));
    expect(referrerHost('https://www.Example.com/x')).toBe('example.com');
    expect(referrerHost(undefined)).toBe('direct');
  });

  it('referrers seen lately answer the same host; many distinct ones still answer right', () => {
    for (let i = 0; i < 3; i++) {
      expect(referrerHost('https://t.co/abc')).toBe('t.co');
      expect(referrerHost('ftp://files.example/x')).toBe('direct');
      expect(referrerHost('not a url')).toBe('direct');
    }
    // Past the kept number the kept hosts are dropped, not mixed up.
    for (let i = 0; i <= REFERRER_HOSTS_MAX + 10; i++) {
      expect(referrerHost(`https://site${i}.example/p?q=${i}`)).toBe(`site${i}.example`);
    }
    expect(referrerHost('https://t.co/abc')).toBe('t.co');
    const long = `https://www.long.example/${'x'.repeat(600)}`;
    expect(referrerHost(long)).toBe('long.example');
  });
});
