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
  private readonly teamsSql: string;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.roleSql = dialectSql(
      engineOf(db),
      'SELECT role FROM team_members WHERE team_id = ? AND user_id = ?',
    );
    this.teamsSql = dialectSql(
      engineOf(db),
      'SELECT team_id, role FROM team_members WHERE user_id = ?',
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
    if (r.teamId) {
      const role = await this.roleIn(a, r.teamId);
      return role !== null && (access === 'read' || roleMayWrite(role));
    }
    if (a.key?.teamId) return false;
    return r.ownerId !== null && r.ownerId === a.id;
  }

  /**
   * The teams the caller may write to (owner or editor; a team key: its team when its role may
   * write), for checks that cannot wait for the database (the short's field checks): one query of
   * at most LIMIT_TEAMS rows.
   */
  async writableTeams(actor: Actor | null): Promise<ReadonlySet<string>> {
    const a = activeActor(actor);
    if (!a) return NO_TEAMS;
    if (a.key?.teamId) return roleMayWrite(a.key.teamRole) ? new Set([a.key.teamId]) : NO_TEAMS;
    const rows: Array<{ team_id: string; role: TeamRole }> = await this.db.query(this.teamsSql, [
      a.id,
    ]);
    return new Set(rows.filter((r) => roleMayWrite(r.role)).map((r) => r.team_id));
  }

  /** The teams whose things the caller may see (any role; a team key: its team). */
  async readableTeams(actor: Actor | null): Promise<string[]> {
    const a = activeActor(actor);
    if (!a) return [];
    if (a.key?.teamId) return [a.key.teamId];
    const rows: Array<{ team_id: string }> = await this.db.query(this.teamsSql, [a.id]);
    return rows.map((r) => r.team_id);
  }

  /**
   * Whether the caller may put shorts on a domain: a shared one (no owner, no team) anybody
   * logged in; a team's one its owners and editors (`writable`: writableTeams); his own; admins any.
   */
  mayUseDomain(actor: Actor | null, d: Owned, writable: ReadonlySet<string>): boolean {
    const a = activeActor(actor);
    if (!a) return false;
    if (isAdmin(a)) return true;
    if (d.teamId) return writable.has(d.teamId);
    if (d.ownerId === null) return true;
    return !a.key?.teamId && d.ownerId === a.id;
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

const NO_TEAMS: ReadonlySet<string> = new Set();

export function teamForbidden(): ForbiddenError {
  return new ForbiddenError('You may not write to this team', 'team_forbidden');
}
