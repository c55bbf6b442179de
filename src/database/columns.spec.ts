import { describe, expect, it } from 'vitest';
import { booleanTransformer, dbTimeMs } from './columns';

describe('column helpers', () => {
  it('reads times from every driver as UTC milliseconds', () => {
    const ms = Date.UTC(2026, 10, 23, 5, 6, 7, 89);
    expect(dbTimeMs(new Date(ms))).toBe(ms);
    expect(dbTimeMs('2026-11-23 05:06:07.089')).toBe(ms); // SQLite text is UTC
    expect(dbTimeMs('2026-11-23T05:06:07.089Z')).toBe(ms);
    expect(dbTimeMs('not a time')).toBeNaN();
  });

  it('stores flags as 0/1 and reads every driver form back as booleans', () => {
    expect(booleanTransformer.to(true)).toBe(1);
    expect(booleanTransformer.to(false)).toBe(0);
    for (const v of [1, '1', true]) expect(booleanTransformer.from(v)).toBe(true);
    for (const v of [0, '0', false]) expect(booleanTransformer.from(v)).toBe(false);
    expect(booleanTransformer.from(null)).toBeNull();
  });
});
