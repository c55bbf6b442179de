import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { dialectSql, engineOf, placeholders } from '../database/dialect';
import { AccessPolicy } from '../access/access-policy';
import { activeActor, type Actor } from '../common/actor';
import { UnauthorizedError } from '../common/errors';
import { tagKey } from '../shared/tags';
import type { TagStatisticsDto, TagStatisticsQueryDto } from './tag-statistics.dto';
import { seriesCsv, StatisticsService } from './statistics.service';

/**
 * The statistics of a tag (CONTRACT "Tags and bulk edits"): the answer of a short's statistics,
 * summed over the shorts of the caller's space (his own, or with `team` a team's whose member he
 * is: AccessPolicy.readableTeam) that carry the tag, found by short_tags' (space, tag) index and
 * summed by the database (StatisticsService.computeTagged), plus the top shorts by visits.
 */
@Injectable()
export class TagStatisticsService {
  constructor(
    private readonly stats: StatisticsService,
    private readonly policy: AccessPolicy,
    private readonly ds: DataSource,
  ) {}

  async forTag(q: TagStatisticsQueryDto, caller: Actor | null): Promise<TagStatisticsDto> {
    const actor = activeActor(caller);
    if (!actor) throw new UnauthorizedError();
    const range = this.stats.parse(q);
    const team = await this.policy.readableTeam(actor, q.team);
    const space = team !== null ? `t:${team}` : `u:${actor.id}`;
    const { answer, shorts } = await this.stats.computeTagged(space, tagKey(q.tag), range);
    // The top shorts' own domains (at most 10, by id), so each links to its own page.
    const domains = new Map<string, string>();
    if (shorts.length > 0) {
      const rows = (await this.ds.query(
        dialectSql(
          engineOf(this.ds),
          `SELECT id, domain FROM shorts WHERE id IN (${placeholders(shorts.length)})`,
        ),
        shorts.map((s) => s.id),
      )) as Array<{ id: string; domain: string | null }>;
      for (const r of rows) if (r.domain) domains.set(r.id, r.domain);
    }
    return { ...answer, shorts: shorts.map((s) => ({ ...s, domain: domains.get(s.id) ?? null })) };
  }

  async csvForTag(q: TagStatisticsQueryDto, caller: Actor | null): Promise<string> {
    return seriesCsv(await this.forTag(q, caller));
  }
}
