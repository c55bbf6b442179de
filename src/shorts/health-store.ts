import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { engineOf } from '../database/dialect';
import type { HealthRecord } from './short-health';
import { ShortEntity } from './short.entity';

/** What a health check reads of a short: its target and its health so far. */
export type HealthRow = Pick<ShortEntity, 'id' | 'url'> & HealthRecord;

const HEALTH_ROW = {
  id: true,
  url: true,
  healthState: true,
  healthStatus: true,
  healthFailures: true,
  healthCheckedAt: true,
  healthFailingSince: true,
} as const;

/**
 * What the link-health checks (src/link-health) read and write of the `shorts` table, and nothing
 * else: a short's target and health, the shorts due for a check, the health after one. The shorts
 * module stays the one owner of the table; this is its port (as FollowStore is the follow's).
 */
@Injectable()
export class HealthStore {
  constructor(@InjectRepository(ShortEntity) private readonly repo: Repository<ShortEntity>) {}

  /** A short's target and health, for a check. */
  findHealth(id: string): Promise<HealthRow | null> {
    return this.repo.findOne({ where: { id }, select: HEALTH_ROW });
  }

  /** How many shorts have an owner (the link-health job checks those). */
  countOwned(): Promise<number> {
    return this.repo.createQueryBuilder('s').where('s.owner_id IS NOT NULL').getCount();
  }

  /**
   * Logged-in shorts not expired at `now` that are due for a check, after `afterId` in id order,
   * `limit` at a time (keyset paging: a sweep reads 100 or 100,000 shorts in the same memory):
   * `never` the ones never checked, `before` the ones last checked before `cutoff`.
   */
  healthDue(
    which: { never: true } | { before: Date },
    now: Date,
    afterId: string | null,
    limit: number,
  ): Promise<HealthRow[]> {
    const qb = this.repo
      .createQueryBuilder('s')
      .select(Object.keys(HEALTH_ROW).map((k) => `s.${k}`))
      .where('s.owner_id IS NOT NULL')
      .andWhere('(s.expire_at IS NULL OR s.expire_at > :now)', { now });
    if ('never' in which) qb.andWhere('s.health_checked_at IS NULL');
    else qb.andWhere('s.health_checked_at < :cutoff', { cutoff: which.before });
    if (afterId !== null) qb.andWhere('s.id > :afterId', { afterId });
    // SQLite would rather walk the primary key in id order (no sort) and test every short, the
    // anonymous ones too (a million: seconds of held event loop); `+s.id` (the same order) makes it
    // read the due ones by IDX_shorts_health_due and sort those.
    const order = engineOf(this.repo.manager.connection) === 'sqlite' ? '+s.id' : 's.id';
    return qb.orderBy(order, 'ASC').limit(limit).getMany();
  }

  /**
   * Writes the health after a check of `url`, when the short still has that target and the
   * failures in a row it had when the check began (a concurrent check of the same short, or a
   * changed target, makes this answer false: read again and decide again).
   */
  async saveHealth(
    id: string,
    url: string,
    prevFailures: number,
    next: HealthRecord,
  ): Promise<boolean> {
    const res = await this.repo
      .createQueryBuilder()
      .update(ShortEntity)
      .set(next)
      .where('id = :id AND url = :url AND health_failures = :prev', { id, url, prev: prevFailures })
      .execute();
    return (res.affected ?? 0) === 1;
  }
}
