import { randomUUID } from 'node:crypto';
import type { Repository } from 'typeorm';
import { ShortEntity } from '../../src/shorts/short.entity';
import type { TestApp } from './app';

/** A short entity with defaults for every field (not saved). */
function newShort(repo: Repository<ShortEntity>, fields: Partial<ShortEntity>): ShortEntity {
  return repo.create({
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
}

/** Inserts a short directly (for states the API cannot create), with defaults for every field. */
export async function insertShort(
  t: Pick<TestApp, 'ds'>,
  fields: Partial<ShortEntity> = {},
): Promise<ShortEntity> {
  const repo = t.ds.getRepository(ShortEntity);
  const s = newShort(repo, fields);
  await repo.insert(s);
  return s;
}

/**
 * Inserts `n` shorts directly, 100 rows per INSERT (one by one, a thousand take long). The entities
 * are not updated from the database: on MySQL/MariaDB TypeORM reads the inserted rows back for a
 * multi-row insert and hands their ids to the wrong entities.
 */
export async function insertShorts(
  t: Pick<TestApp, 'ds'>,
  n: number,
  fields: (i: number) => Partial<ShortEntity> = () => ({}),
): Promise<ShortEntity[]> {
  const repo = t.ds.getRepository(ShortEntity);
  const list = Array.from({ length: n }, (_, i) => newShort(repo, fields(i)));
  for (let i = 0; i < list.length; i += 100) {
    await repo
      .createQueryBuilder()
      .insert()
      .values(list.slice(i, i + 100))
      .updateEntity(false)
      .execute();
  }
  return list;
}
