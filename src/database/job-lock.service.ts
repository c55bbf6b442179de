import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { isUniqueViolation } from './errors';

/**
 * Database leases for scheduled jobs, so that exactly one of several instances
 * sharing a database runs a job at a time.
 */
@Injectable()
export class JobLockService {
  readonly holder = randomUUID();

  constructor(private readonly ds: DataSource) {}

  async tryAcquire(name: string, leaseMs: number): Promise<boolean> {
    const now = new Date();
    const until = new Date(now.getTime() + leaseMs);
    try {
      await this.ds
        .createQueryBuilder()
        .insert()
        .into('job_locks')
        .values({ name, holder: this.holder, locked_until: until })
        .execute();
      return true;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    const res = await this.ds
      .createQueryBuilder()
      .update('job_locks')
      .set({ holder: this.holder, locked_until: until })
      .where('name = :name', { name })
      .andWhere('(locked_until < :now OR holder = :holder)', { now, holder: this.holder })
      .execute();
    return (res.affected ?? 0) === 1;
  }

  async release(name: string): Promise<void> {
    await this.ds
      .createQueryBuilder()
      .delete()
      .from('job_locks')
      .where('name = :name AND holder = :holder', { name, holder: this.holder })
      .execute();
  }
}
