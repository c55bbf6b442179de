import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagesLoadedBy } from '../../test/support/packages-loaded';

describe('the statistics writer’s thread', () => {
  it('loads better-sqlite3 and the user-agent parser, but neither TypeORM nor Nest', () => {
    const loaded = packagesLoadedBy(join(__dirname, 'stats-thread.ts'));
    expect(loaded).toContain('better-sqlite3');
    expect(loaded).toContain('ua-parser-js');
    expect(loaded.filter((p) => /typeorm|@nestjs|reflect-metadata|rxjs/.test(p))).toEqual([]);
  });
});
