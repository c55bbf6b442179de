import { describe, expect, it } from 'vitest';
import { findNul, hasNul } from './db-limits';

describe('NUL characters', () => {
  it('hasNul finds U+0000 anywhere in a string', () => {
    expect(hasNul('a\u0000b')).toBe(true);
    expect(hasNul('\u0000')).toBe(true);
    expect(hasNul('%00')).toBe(false);
    expect(hasNul('')).toBe(false);
  });

  it('findNul names the top-level field that holds one, at any depth and in keys', () => {
    expect(findNul({ url: 'https://example.com', name: 'a\u0000' })).toBe('name');
    expect(findNul({ rows: [{ url: 'x' }, { name: ['\u0000'] }] })).toBe('rows');
    expect(findNul({ rows: [{ 'na\u0000me': 'x' }] })).toBe('rows');
    expect(findNul({ 'a\u0000': 1 })).toBe('body');
    expect(findNul(['\u0000'])).toBe('body');
    expect(findNul('\u0000')).toBe('body');
  });

  it('findNul passes bodies without one', () => {
    expect(findNul({ url: 'https://example.com', n: 1, b: true, x: null, a: [{}] })).toBeNull();
    expect(findNul(undefined)).toBeNull();
    expect(findNul(42)).toBeNull();
  });
});
