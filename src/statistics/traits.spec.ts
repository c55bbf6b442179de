import { describe, expect, it } from 'vitest';
import { UAParser } from 'ua-parser-js';
import {
  AGENT_READ_MAX,
  cutValue,
  MAX_VALUE_LENGTH,
  ownCopy,
  parseAgent,
  REFERRER_HOSTS_MAX,
  referrerHost,
  SEP,
} from './traits';

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

  it("a user agent longer than the parser reads is cut first: the same traits as the parser's own answer for the whole agent", () => {
    const chrome =
      'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';
    for (const ua of [
      chrome,
      `${chrome} ${'z'.repeat(16_000)}`,
      `${'(x) '.repeat(4_000)}${chrome}`,
      `   ${chrome}${' '.repeat(AGENT_READ_MAX)}`,
    ]) {
      const whole = new UAParser(ua).getResult();
      const agent = parseAgent(ua);
      expect(agent.browser).toBe(whole.browser.name ?? 'unknown');
      expect(agent.os).toBe(whole.os.name ?? 'unknown');
      expect(agent.traits).toBe([agent.browser, agent.os, agent.device].join(SEP));
      expect(parseAgent(ua)).toBe(agent); // remembered
    }
    expect(parseAgent(chrome).traits).toBe(`Chrome${SEP}Android${SEP}mobile`);
  });

  it('a copy of a value has the same characters, whatever they are', () => {
    for (const v of [
      'example.com',
      'Grüße ÿ',
      'x'.repeat(600).slice(50, 150),
      '日本語 😀 \ud800',
    ]) {
      expect(ownCopy(v)).toBe(v);
    }
  });
});
