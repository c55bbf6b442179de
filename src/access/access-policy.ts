import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { activeActor, isAdmin, type Actor } from '../common/actor';
import { ForbiddenError } from '../common/errors';
import { dialectSql, engineOf } from '../database/dialect';
import { roleMayWrite, type TeamRole } from '../shared/teams';

/** What a short, a domain, a key or a webhook belongs to: a user's own space or a team. */
export interface Owned {
  ownerId: string | null;
  teamId: string | null;
}

export type Access = 'read' | 'write';

/**
 * The one place that decides every right on what users and teams own (CONTRACT "Teams"):
 * - its owner has every right on what lies in his own space (team null);
 * - on a team's things, owners and editors read and write, viewers only read;
 * - admins have every right, except through a team's key;
 * - a team's key acts for that team only, capped by its creator's role there;
 * - anonymous and not-activated callers have none.
 * Shorts, statistics, QR codes, reports, export, import, domains and link health ask it; none
 * compares `owner_id` on its own.
 */
@Injectable()
export class AccessPolicy {
  private readonly roleSql: string;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.roleSql = dialectSql(
      engineOf(db),
      'SELECT role FROM team_members WHERE team_id = ? AND user_id = ?',
    );
  }

  /** The caller's role in `teamId` (a team key: its role there, in no other team), or null. */
  async roleIn(actor: Actor | null, teamId: string): Promise<TeamRole | null> {
    const a = activeActor(actor);
    if (!a) return null;
    if (a.key?.teamId) return a.key.teamId === teamId ? a.key.teamRole : null;
    const rows: Array<{ role: TeamRole }> = await this.db.query(this.roleSql, [teamId, a.id]);
    return rows[0]?.role ?? null;
  }

  /** Whether the caller may read or write `r` (see the class comment). */
  async may(actor: Actor | null, r: Owned, access: Access): Promise<boolean> {
    const a = activeActor(actor);
    if (!a) return false;
    if (isAdmin(a)) return true;
    if (r.teamId !== null) {
      const role = await this.roleIn(a, r.teamId);
      return role !== null && (access === 'read' || roleMayWrite(role));
    }
    if (a.key?.teamId) return false;
    return r.ownerId !== null && r.ownerId === a.id;
  }

  /**
   * The space a create, an import or a move writes to: `team` undefined → the caller's default
   * (a team key's team, else his own space: null); null → his own space; an id → that team, when
   * the caller is its owner or editor (admins: any existing team). Else 403 `team_forbidden`.
   */
  async writableTeam(actor: Actor, team: string | null | undefined): Promise<string | null> {
    if (team === undefined) return actor.key?.teamId ?? null;
    if (team === null) {
      if (actor.key?.teamId) throw teamForbidden();
      return null;
    }
    if (roleMayWrite(await this.roleIn(actor, team))) return team;
    if (isAdmin(actor) && (await this.teamExists(team))) return team;
    throw teamForbidden();
  }

  /**
   * The space a list or an export reads: `team` absent → the caller's default (a team key's team,
   * else his own space: null); an id → that team, when the caller is a member (admins: any
   * existing team). Else 403 `team_forbidden`.
   */
  async readableTeam(actor: Actor, team: string | undefined): Promise<string | null> {
    if (team === undefined || team === '') return actor.key?.teamId ?? null;
    if ((await this.roleIn(actor, team)) !== null) return team;
    if (isAdmin(actor) && (await this.teamExists(team))) return team;
    throw teamForbidden();
  }

  private async teamExists(id: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      dialectSql(engineOf(this.db), 'SELECT id FROM teams WHERE id = ?'),
      [id],
    );
    return rows.length > 0;
  }
}

export function teamForbidden(): ForbiddenError {
  return new ForbiddenError('You may not write to this team', 'team_forbidden');
}
