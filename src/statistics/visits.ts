import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ShortVisitsSource } from '../shorts/short-events';

/**
 * The visits of shorts for the shorts module's own list (its ShortVisitsSource): summed from the
 * hourly buckets, which only this module knows.
 */
@Injectable()
export class ShortVisits implements ShortVisitsSource {
  constructor(private readonly ds: DataSource) {}

  async visitsOf(ids: readonly string[]): Promise<Map<string, number>> {
    const visits = new Map<string, number>();
    if (ids.length === 0) return visits;
    const rows = await this.ds
      .createQueryBuilder()
      .select('h.short_id', 'id')
      .addSelect('SUM(h.visits)', 'n')
      .from('stats_hourly', 'h')
      .where('h.short_id IN (:...ids)', { ids })
      .groupBy('h.short_id')
      .getRawMany<{ id: string; n: string | number }>();
    for (const r of rows) visits.set(r.id, Number(r.n));
    return visits;
  }

  orderExpression(alias: string): string {
    return `(SELECT COALESCE(SUM(h.visits), 0) FROM stats_hourly h WHERE h.short_id = ${alias}.id)`;
  }
}
