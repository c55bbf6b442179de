import type { ValueTransformer } from 'typeorm';

/** Boolean stored as 0/1 on both SQLite and MySQL (tinyint), read back as a real boolean. */
export const booleanTransformer: ValueTransformer = {
  to: (v: boolean | undefined | null) => (v === undefined || v === null ? v : v ? 1 : 0),
  from: (v: unknown) => (v === null || v === undefined ? v : v === true || v === 1 || v === '1'),
};
