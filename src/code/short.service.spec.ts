import { describe, expect, it } from 'vitest';
import { MAX_NAME_LENGTH, normalizeName } from './short.service';

describe('normalizeName', () => {
  it('trims, stores empty as null and keeps at most the column length', () => {
    expect(normalizeName('  Urlaub  ')).toBe('Urlaub');
    expect(normalizeName('   ')).toBeNull();
    expect(normalizeName('')).toBeNull();
    expect(normalizeName(null)).toBeNull();
    expect(normalizeName(undefined)).toBeNull();
    expect(normalizeName('x'.repeat(150))).toHaveLength(MAX_NAME_LENGTH);
  });
});
