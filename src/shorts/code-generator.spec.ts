import { describe, expect, it } from 'vitest';
import { CUSTOM_CODE_PATTERN, isReservedCode } from '../shared/limits';
import { CODE_ALPHABET, generateCode } from './code-generator';

describe('generateCode', () => {
  it('makes 7 characters from the look-alike-free alphabet', () => {
    for (let i = 0; i < 1000; i++) {
      const c = generateCode();
      expect(c).toHaveLength(7);
      for (const ch of c) expect(CODE_ALPHABET).toContain(ch);
    }
    expect(CODE_ALPHABET).not.toMatch(/[01lIoO]/);
  });

  it('uses every character of the alphabet with roughly equal frequency', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 8000; i++)
      for (const ch of generateCode()) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(CODE_ALPHABET.length);
    const expected = (8000 * 7) / CODE_ALPHABET.length;
    for (const n of counts.values()) {
      expect(n).toBeGreaterThan(expected * 0.7);
      expect(n).toBeLessThan(expected * 1.3);
    }
  });
});

describe('custom codes', () => {
  it('follow the pattern', () => {
    expect(CUSTOM_CODE_PATTERN.test('abc')).toBe(true);
    expect(CUSTOM_CODE_PATTERN.test('My_Code-42')).toBe(true);
    expect(CUSTOM_CODE_PATTERN.test('ab')).toBe(false);
    expect(CUSTOM_CODE_PATTERN.test('a'.repeat(65))).toBe(false);
    expect(CUSTOM_CODE_PATTERN.test('with space')).toBe(false);
    expect(CUSTOM_CODE_PATTERN.test('ümlaut')).toBe(false);
    expect(CUSTOM_CODE_PATTERN.test('a/b')).toBe(false);
  });

  it('reserved words are refused in any case', () => {
    for (const w of [
      'api',
      'API',
      'Admin',
      'login',
      'shorts',
      'management',
      'assets',
      'service',
      'account',
    ]) {
      expect(isReservedCode(w)).toBe(true);
    }
    expect(isReservedCode('apis')).toBe(false);
  });
});
