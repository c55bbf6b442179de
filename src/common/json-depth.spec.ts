import { describe, expect, it } from 'vitest';
import { findTooDeep, MAX_JSON_DEPTH } from './json-depth';

const b = (s: string) => Buffer.from(s, 'utf8');
const nested = (n: number, inner = '1') => '['.repeat(n) + inner + ']'.repeat(n);

describe('findTooDeep', () => {
  it('accepts JSON up to the limit', () => {
    expect(findTooDeep(b('{"url":"https://example.com"}'))).toBeNull();
    expect(findTooDeep(b(nested(MAX_JSON_DEPTH)))).toBeNull();
    expect(findTooDeep(b(`{"a":${nested(MAX_JSON_DEPTH - 1)}}`))).toBeNull();
  });

  it('names the top-level field that holds a value nested too deep', () => {
    expect(findTooDeep(b(`{"url":"x","maxUses":${nested(2000)}}`))).toBe('maxUses');
    expect(findTooDeep(b(`{"query_string":{"query":${nested(40)}}}`))).toBe('query_string');
    expect(findTooDeep(b(nested(2000)))).toBe('body');
  });

  it('is not fooled by brackets, quotes and escapes inside strings', () => {
    const text = JSON.stringify({ a: '[[[[[[' + '{'.repeat(100), b: 'x\\"[[[[', c: '"{"' });
    expect(findTooDeep(b(text))).toBeNull();
    expect(findTooDeep(b(`{"k\\"ey[":${nested(40)}}`))).toBe('k"ey[');
  });

  it('handles multi-byte characters', () => {
    expect(findTooDeep(b(`{"ä😀":${nested(40)}}`))).toBe('ä😀');
  });
});
