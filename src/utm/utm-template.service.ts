import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { In, IsNull, type Repository } from 'typeorm';
import { AccessPolicy } from '../access/access-policy';
import { activeActor, type Actor, isAdmin } from '../common/actor';
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from '../common/errors';
import { dialectSql, engineOf } from '../database/dialect';
import { sqliteDatetime } from '../database/sqlite-batch-source';
import { RateLimitService } from '../limits/rate-limit.service';
import { LIMIT_UTM_TEMPLATES, UTM_FIELDS } from '../shared/utm';
import type { CreateUtmTemplateDto, UtmTemplateDto } from './dto/utm-template.dto';
import { UtmTemplateEntity } from './utm-template.entity';

/** An unknown template: 404 in the words and key of every unknown entity (`Entity … not exists`). */
const templateNotFound = () =>
  new NotFoundError('Entity UtmTemplate not exists', 'entity_not_exists');

/** A value as stored: an empty or absent one is null (the template leaves that parameter alone). */
const stored = (v: string | null | undefined): string | null => (v ? v : null);

/**
 * UTM templates (CONTRACT "Marketing links", "Counted caps"): listed, created and deleted with the
 * rights of the AccessPolicy (a team's owners and editors write, its viewers read), at most
 * LIMIT_UTM_TEMPLATES per user or team (counted in the insert's own statement or transaction, so
 * parallel creates cannot pass the cap), creates under the `userCreate` rate limit.
 */
@Injectable()
export class UtmTemplateService {
  constructor(
    @InjectRepository(UtmTemplateEntity) private readonly repo: Repository<UtmTemplateEntity>,
    private readonly policy: AccessPolicy,
    private readonly limits: RateLimitService,
  ) {}

  private get engine() {
    return engineOf(this.repo.manager.connection);
  }

  /**
   * A team's templates (`team`: members), or without it the caller's own and his teams' (a team's
   * key: its team's). Oldest first.
   */
  async list(caller: Actor | null, team: string | undefined): Promise<UtmTemplateDto[]> {
    const actor = this.actor(caller);
    const teamId = await this.policy.readableTeam(actor, team);
    const teams = teamId ? [teamId] : await this.policy.readableTeams(actor);
    const own = teamId || actor.key?.teamId ? [] : [{ ownerId: actor.id, teamId: IsNull() }];
    const where = [...own, ...(teams.length ? [{ teamId: In(teams) }] : [])];
    if (!where.length) return [];
    const rows = await this.repo.find({
      where,
      relations: { team: true },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return rows.map((r) => this.toDto(r));
  }

  async create(dto: CreateUtmTemplateDto, caller: Actor | null): Promise<UtmTemplateDto> {
    const actor = this.actor(caller);
    const teamId = await this.policy.writableTeam(actor, dto.team);
    if (!isAdmin(actor)) await this.limits.take('userCreate', actor.id);
    const t = this.repo.create({
      id: randomUUID(),
      ownerId: teamId ? null : actor.id,
      teamId,
      name: dto.name,
      source: stored(dto.source),
      medium: stored(dto.medium),
      campaign: stored(dto.campaign),
      term: stored(dto.term),
      content: stored(dto.content),
      createdAt: new Date(),
    });
    if (!(await this.insertCapped(t))) {
      throw new ConflictError(
        `Quota exceeded: at most ${LIMIT_UTM_TEMPLATES} UTM templates per user or team`,
        'quota_exceeded',
      );
    }
    const made = await this.repo.findOne({ where: { id: t.id }, relations: { team: true } });
    if (!made) throw templateNotFound(); // deleted (its team or user) in the meantime
    return this.toDto(made);
  }

  async delete(id: string, caller: Actor | null): Promise<void> {
    const actor = this.actor(caller);
    const t = await this.repo.findOne({ where: { id } });
    if (!t) throw templateNotFound();
    if (!(await this.policy.may(actor, { ownerId: t.ownerId, teamId: t.teamId }, 'write'))) {
      throw new ForbiddenError(
        'Only the owner, its team’s editors or an admin may do this',
        'not_owner',
      );
    }
    await this.repo.delete({ id: t.id });
  }

  /**
   * Inserts a template unless its space holds LIMIT_UTM_TEMPLATES already; false when refused
   * (nothing written). SQLite: one `INSERT … SELECT … WHERE (the count) < cap` (one writer at a
   * time); MariaDB and PostgreSQL: one READ COMMITTED transaction that locks the space's row (the
   * team's, or the user's: `FOR UPDATE`), counts and inserts, so parallel creates wait in turn.
   */
  private async insertCapped(t: UtmTemplateEntity): Promise<boolean> {
    const where = t.teamId ? 'team_id = ?' : 'owner_id = ? AND team_id IS NULL';
    const spaceId = t.teamId ?? t.ownerId;
    if (this.engine === 'sqlite') {
      const cols = ['id', 'owner_id', 'team_id', 'name', ...UTM_FIELDS];
      const values = [t.id, t.ownerId, t.teamId, t.name, ...UTM_FIELDS.map((f) => t[f])];
      const runner = this.repo.manager.connection.createQueryRunner();
      try {
        const res = await runner.query(
          `INSERT INTO utm_templates (${cols.join(', ')}, created_at) SELECT ${cols.map(() => '?').join(', ')}, ? WHERE (SELECT COUNT(*) FROM utm_templates WHERE ${where}) < ?`,
          [...values, sqliteDatetime(t.createdAt), spaceId, LIMIT_UTM_TEMPLATES],
          true,
        );
        return res.affected === 1;
      } finally {
        await runner.release();
      }
    }
    const sql = (text: string) => dialectSql(this.engine, text);
    return this.repo.manager.transaction('READ COMMITTED', async (m) => {
      await m.query(sql(`SELECT id FROM ${t.teamId ? 'teams' : 'users'} WHERE id = ? FOR UPDATE`), [
        spaceId,
      ]);
      const [row] = (await m.query(sql(`SELECT COUNT(*) AS n FROM utm_templates WHERE ${where}`), [
        spaceId,
      ])) as Array<{ n: number | string }>;
      if (Number(row.n) >= LIMIT_UTM_TEMPLATES) return false;
      await m.insert(UtmTemplateEntity, t);
      return true;
    });
  }

  private actor(caller: Actor | null): Actor {
    const actor = activeActor(caller);
    if (!actor) throw new UnauthorizedError();
    return actor;
  }

  toDto(t: UtmTemplateEntity): UtmTemplateDto {
    return {
      id: t.id,
      name: t.name,
      source: t.source,
      medium: t.medium,
      campaign: t.campaign,
      term: t.term,
      content: t.content,
      team: t.teamId ? { id: t.teamId, name: t.team?.name ?? '' } : null,
      createdAt: t.createdAt.toISOString(),
    };
  }
}
