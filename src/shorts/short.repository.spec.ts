import { describe, expect, it } from 'vitest';
import { generateCode } from './code-generator';
import { isStorableCode } from './short.repository';

describe('isStorableCode', () => {
  it('admits the alphabet of custom and generated codes, nothing else', () => {
    for (const code of ['abc', 'aB3_x-9', 'x'.repeat(64), generateCode(), 'ab', 'api'])
      expect(isStorableCode(code), code).toBe(true);
    for (const code of ['', 'abc ', ' abc', 'a b', 'abc\t', 'a\0b', 'äbc', 'abc.', 'x'.repeat(65)])
      expect(isStorableCode(code), JSON.stringify(code)).toBe(false);
  });
});
