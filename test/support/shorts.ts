import { randomUUID } from 'node:crypto';
import { ShortEntity } from '../../src/shorts/short.entity';
import type { TestApp } from './app';

/** Inserts a short directly (for states the API cannot create), with defaults for every field. */
export async function insertShort(
  t: Pick<TestApp, 'ds'>,
  fields: Partial<ShortEntity> = {},
): Promise<ShortEntity> {
  const repo = t.ds.getRepository(ShortEntity);
  const s = repo.create({
    id: randomUUID(),
    code: `t${randomUUID().replace(/-/g, '').slice(0, 12)}`,
    name: null,
    url: 'https://example.com/direct',
    passwordHash: null,
    maxUses: null,
    uses: 0,
    createdAt: new Date(),
    expireAt: null,
    ownerId: null,
    dangerous: false,
    dangerReason: null,
    ...fields,
  });
  await repo.insert(s);
  return s;
}
