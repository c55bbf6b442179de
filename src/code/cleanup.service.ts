import { Inject, Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { JobLockService } from '../database/job-lock.service';
import { ShortEntity } from './short.entity';

const JOB = 'cleanup-expired-anonymous-shorts';
const EVERY_MS = 60 * 60 * 1000;

/** Removes expired anonymous shorts after the retention period; one instance at a time. */
@Injectable()
export class CleanupService {
  private readonly logger = new Logger(CleanupService.name);

  constructor(
    @InjectRepository(ShortEntity) private readonly repo: Repository<ShortEntity>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly locks: JobLockService,
  ) {}

  @Interval(JOB, EVERY_MS)
  async scheduled(): Promise<void> {
    try {
      await this.run();
    } catch (err) {
      this.logger.warn(`Cleanup failed: ${String(err)}`);
    }
  }

  /** Returns the number of removed shorts, or null when another instance holds the job. */
  async run(now = new Date()): Promise<number | null> {
    if (!(await this.locks.tryAcquire(JOB, EVERY_MS / 2))) return null;
    const cutoff = new Date(now.getTime() - this.config.anonRetentionDays * 24 * 60 * 60 * 1000);
    const res = await this.repo
      .createQueryBuilder()
      .delete()
      .from(ShortEntity)
      .where('owner_id IS NULL')
      .andWhere('expire_at IS NOT NULL AND expire_at < :cutoff', { cutoff })
      .execute();
    const removed = res.affected ?? 0;
    if (removed > 0) this.logger.log(`Removed ${removed} expired anonymous shorts`);
    return removed;
  }
}
