import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { In, Repository } from 'typeorm';
import { activeActor, type Actor } from '../common/actor';
import { ConflictError, UnauthorizedError } from '../common/errors';
import { ShortAccessService } from '../shorts/short-access.service';
import { ShortEditService } from '../shorts/short-edit.service';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { dbTimeMs } from '../database/columns';
import { onUniqueViolation } from '../database/errors';
import { LogService } from '../logging/log.service';
import { MetricsService } from '../metrics/metrics.service';
import type { CreateReportDto, OwnerReportDto } from './dto/report.dto';
import { ReportEntity, type ReportState } from './report.entity';

/**
 * Reports and the danger flag. A short is flagged when the number of distinct reporters with
 * reports that are not dismissed reaches REPORT_THRESHOLD; one conditional UPDATE
 * (`… WHERE dangerous = 0`) makes the flag happen exactly once however many reports race.
 */
@Injectable()
export class ReportService {
  constructor(
    @InjectRepository(ReportEntity) private readonly reports: Repository<ReportEntity>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly shorts: ShortEditService,
    private readonly access: ShortAccessService,
    private readonly log: LogService,
    private readonly metrics: MetricsService,
  ) {}

  async report(
    code: string,
    dto: CreateReportDto,
    caller: Actor | null,
    hostHeader?: string,
    domain?: unknown,
  ): Promise<void> {
    const actor = activeActor(caller);
    if (!actor) throw new UnauthorizedError();
    // 404 Entity URLShort not exists; on an own domain, its codes
    const short = await this.access.findVisible(
      code,
      this.access.requestDomain(hostHeader, domain),
    );
    await onUniqueViolation(
      this.reports.insert({
        id: randomUUID(),
        shortId: short.id,
        reporterId: actor.id,
        reason: dto.reason,
        description: dto.description,
        state: 'open',
        createdAt: new Date(),
      }),
      () => new ConflictError('Entity already exists', 'report_exists'),
    );
    this.metrics.reports.inc();
    if (short.dangerous) return;
    await this.flagIfThresholdReached(short.id);
  }

  /** Sets the flag once when enough distinct users have open or actioned reports. */
  private async flagIfThresholdReached(shortId: string): Promise<void> {
    const rows = await this.reports
      .createQueryBuilder('r')
      .select('r.reason', 'reason')
      .addSelect('COUNT(*)', 'n')
      .addSelect('MIN(r.created_at)', 'first')
      .where('r.short_id = :shortId', { shortId })
      .andWhere('r.state <> :dismissed', { dismissed: 'dismissed' })
      .groupBy('r.reason')
      .getRawMany<{ reason: string; n: string | number; first: unknown }>();
    const total = rows.reduce((sum, r) => sum + Number(r.n), 0);
    if (total < this.config.reportThreshold) return;
    // Most frequent reason; ties go to the reason reported first.
    const top = rows
      .map((r) => ({ reason: r.reason, n: Number(r.n), first: dbTimeMs(r.first) }))
      .sort((a, b) => b.n - a.n || a.first - b.first)[0];
    if (await this.shorts.flagDangerousOnce(shortId, top.reason)) {
      this.metrics.flagged.inc();
      this.log.write(
        'info',
        'report',
        `Short ${shortId} flagged dangerous after ${total} reports`,
        {
          shortId,
          reason: top.reason,
        },
      );
    }
  }

  /**
   * An admin sets or clears the flag. Clearing dismisses the open reports (so the same reports do
   * not flag it again); setting marks them actioned.
   */
  async setDangerous(shortId: string, dangerous: boolean, reason: string | null): Promise<void> {
    await this.shorts.setDanger(shortId, dangerous, reason);
    await this.reports.update(
      { shortId, state: In(dangerous ? ['open'] : ['open', 'actioned']) },
      { state: dangerous ? 'actioned' : 'dismissed' },
    );
  }

  /** The reports of a short for its owner or an admin, newest first, without the reporters. */
  async forOwner(shortId: string, caller: Actor | null): Promise<OwnerReportDto[]> {
    const short = await this.access.findOwned(shortId, caller, 'read');
    const rows = await this.reports.find({
      where: { shortId: short.id },
      order: { createdAt: 'DESC', id: 'ASC' },
      select: { reason: true, description: true, createdAt: true, state: true },
    });
    return rows.map((r) => ({
      reason: r.reason,
      description: r.description,
      createdAt: r.createdAt.toISOString(),
      state: r.state,
    }));
  }

  /** An admin moves a report through the moderation queue. */
  async setState(id: string, state: ReportState): Promise<void> {
    await this.reports.update({ id }, { state });
  }

  async remove(id: string): Promise<void> {
    await this.reports.delete({ id });
  }
}
