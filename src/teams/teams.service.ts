import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AccessPolicy } from '../access/access-policy';
import { activeActor, type Actor } from '../common/actor';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
  ValidationFailedError,
} from '../common/errors';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { dialectSql, engineOf } from '../database/dialect';
import { RateLimitService } from '../limits/rate-limit.service';
import { INVITE_DAYS, LIMIT_TEAM_MEMBERS, TEAM_NAME_MAX, type TeamRole } from '../shared/teams';
import type { TeamDto, TeamInviteDto, TeamMemberDto } from './dto/team.dto';
import { type Row, rows, run, runTx, type TxStep } from '../database/tx';

/** Open (unused, unexpired) invites a team may hold at once. */
export const LIMIT_OPEN_INVITES = 50;
/** The recognisable start of an invite token. */
export const INVITE_PREFIX = 'inv_';
const INVITE_MS = INVITE_DAYS * 24 * 60 * 60 * 1000;

export const teamNotFound = () => new NotFoundError('Entity Team not exists', 'entity_not_exists');
const ownerOnly = () => new ForbiddenError('Only a team’s owners may do this', 'team_forbidden');
const lastOwner = () => new ConflictError('A team must keep at least one owner', 'team_last_owner');
const notEmpty = () =>
  new ConflictError('The team still holds shorts or domains', 'team_not_empty');
const inviteInvalid = () =>
  new NotFoundError('Invite is unknown, used or expired', 'invite_invalid');
const memberNotFound = () => new NotFoundError('Entity TeamMember not exists', 'entity_not_exists');

/** SHA-256 hex of an invite token: the only form in which a token is stored. */
export function inviteHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A new invite token: 256 random bits, base64url, with a recognisable prefix. */
export function newInviteToken(): string {
  return INVITE_PREFIX + randomBytes(32).toString('base64url');
}

/** A team name trimmed, or null when it is not 1–64 characters (code points, as the column counts). */
export function teamName(raw: string): string | null {
  const name = raw.trim();
  const length = [...name].length;
  return length >= 1 && length <= TEAM_NAME_MAX ? name : null;
}

function checkedName(raw: string): string {
  const name = teamName(raw);
  if (name === null) {
    throw new ValidationFailedError(
      { name: `must be 1 to ${TEAM_NAME_MAX} characters` },
      { name: 'name_invalid' },
    );
  }
  return name;
}

const iso = (v: unknown): string => toDate(v).toISOString();

/** A datetime column as a raw query answers it (a Date, or SQLite's UTC text). */
function toDate(v: unknown): Date {
  if (v instanceof Date) return v;
  const s = String(v);
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s.replace(' ', 'T')}Z`);
}

const count = (r: Row[]): number => Number(r[0]?.n ?? 0);

type Outcome = 'ok' | 'not_found' | 'forbidden' | 'last_owner' | 'member_not_found' | 'not_empty';

/**
 * In a transaction (runTx): locks the team's row and reads its members' roles afresh, or null when
 * the team is gone.
 */
/** A team's roles as a transaction read them: each member's, and how many owners it has. */
interface TeamRoles {
  roleOf(userId: string): TeamRole | undefined;
  owners: number;
}

function* lockedRoles(id: string, lock: string): Generator<TxStep, TeamRoles | null, unknown> {
  const team = (yield rows(`SELECT id FROM teams WHERE id = ?${lock}`, id)) as Row[];
  if (team.length === 0) return null;
  const roles = (yield rows(
    'SELECT user_id, role FROM team_members WHERE team_id = ?',
    id,
  )) as Row[];
  return {
    roleOf: (userId) => roles.find((r) => r.user_id === userId)?.role as TeamRole | undefined,
    owners: roles.filter((r) => r.role === 'owner').length,
  };
}

function fail(outcome: Outcome): never {
  switch (outcome) {
    case 'not_found':
      throw teamNotFound();
    case 'forbidden':
      throw ownerOnly();
    case 'last_owner':
      throw lastOwner();
    case 'member_not_found':
      throw memberNotFound();
    case 'not_empty':
      throw notEmpty();
    default:
      throw new Error(`unexpected outcome ${outcome}`);
  }
}

/**
 * Teams (CONTRACT "Teams"): create, rename and delete a team, its members and their roles, and
 * invites. Rights: AccessPolicy.roleIn decides who is a member with which role; a stranger gets 404
 * (a team's existence is not revealed), a member without the owner role 403 `team_forbidden` for
 * owner-only actions. Every write that a count or the last owner guards runs in one transaction
 * (runTx) that locks the team's row (or, for a user's count of teams, his user row) first, so that
 * two calls at once take turns: two owners demoting each other leave one owner, two creates at the
 * cap do not both pass it, an invite is used once.
 *
 * The tables of teams: `teams`, `team_members`, `team_invites`. Deleting a team also deletes the
 * API keys of that team, and deleting a user hands the team's shorts and domains he created to
 * another owner of that team: both in the same transaction, so those statements write the
 * `api_keys`, `shorts` and `domains` tables directly (their owners' services have no transactions
 * to join).
 */
@Injectable()
export class TeamsService {
  private readonly maxTeams: number;
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  /** Members per team (LIMIT_TEAM_MEMBERS; tests may lower it). */
  maxMembers = LIMIT_TEAM_MEMBERS;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly access: AccessPolicy,
    private readonly limits: RateLimitService,
  ) {
    this.maxTeams = config.limits.teams;
    this.baseUrl = config.baseUrl;
    this.timeoutMs = config.dbTimeoutMs;
  }

  private actor(caller: Actor | null): Actor {
    const a = activeActor(caller);
    if (!a) throw new UnauthorizedError();
    return a;
  }

  private quota(what: string, cap: number): ConflictError {
    return new ConflictError(`Quota exceeded: at most ${cap} ${what}`, 'quota_exceeded');
  }

  /** The caller's role in the team; a stranger: 404; `owner` asked and not the owner: 403. */
  private async role(actor: Actor, teamId: string, owner = false): Promise<TeamRole> {
    const role = await this.access.roleIn(actor, teamId);
    if (role === null) throw teamNotFound();
    if (owner && role !== 'owner') throw ownerOnly();
    return role;
  }

  /** The caller's teams with his role, by name. */
  async list(caller: Actor | null): Promise<TeamDto[]> {
    const actor = this.actor(caller);
    const found: Row[] = await this.ds.query(
      this.sql(
        `SELECT t.id AS id, t.name AS name, t.created_at AS created_at, m.role AS role
           FROM team_members m JOIN teams t ON t.id = m.team_id
          WHERE m.user_id = ? ORDER BY t.name, t.id`,
      ),
      [actor.id],
    );
    return found.map((r) => this.teamOf(r));
  }

  private async found(id: string, role: TeamRole): Promise<TeamDto> {
    const [r]: Row[] = await this.ds.query(
      this.sql('SELECT id, name, created_at FROM teams WHERE id = ?'),
      [id],
    );
    if (!r) throw teamNotFound();
    return this.teamOf({ ...r, role });
  }

  private teamOf(r: Row): TeamDto {
    return {
      id: String(r.id),
      name: String(r.name),
      createdAt: iso(r.created_at),
      role: r.role as TeamRole,
    };
  }

  /**
   * A new team with the caller as its owner. Refused with 409 `quota_exceeded` when he owns or
   * belongs to LIMIT_TEAMS teams already (counted in the transaction that inserts, holding his
   * user row), and 429 beyond LIMIT_TEAM_CREATE (per user and per client address).
   */
  async create(rawName: string, caller: Actor | null, client: string): Promise<TeamDto> {
    const actor = this.actor(caller);
    const name = checkedName(rawName);
    await this.limits.take('teamCreate', `user:${actor.id}`);
    await this.limits.take('teamCreate', client);
    const id = randomUUID();
    const now = new Date();
    const cap = this.maxTeams;
    const created = await runTx(this.ds, this.timeoutMs, function* ({ lock }) {
      yield rows(`SELECT id FROM users WHERE id = ?${lock}`, actor.id);
      const n = count(
        (yield rows('SELECT COUNT(*) AS n FROM team_members WHERE user_id = ?', actor.id)) as Row[],
      );
      if (n >= cap) return false;
      yield run('INSERT INTO teams (id, name, created_at) VALUES (?, ?, ?)', id, name, now);
      yield run(
        'INSERT INTO team_members (team_id, user_id, role, joined_at) VALUES (?, ?, ?, ?)',
        id,
        actor.id,
        'owner',
        now,
      );
      return true;
    });
    if (!created) throw this.quota('teams per user', cap);
    return { id, name, createdAt: now.toISOString(), role: 'owner' };
  }

  /** Renames a team (owners). */
  async rename(id: string, rawName: string, caller: Actor | null): Promise<TeamDto> {
    const actor = this.actor(caller);
    const name = checkedName(rawName);
    await this.role(actor, id, true);
    await this.ds.query(this.sql('UPDATE teams SET name = ? WHERE id = ?'), [name, id]);
    return this.found(id, 'owner');
  }

  /** Deletes a team (owners), refused while shorts or domains belong to it. */
  async delete(id: string, caller: Actor | null): Promise<void> {
    const actor = this.actor(caller);
    await this.role(actor, id, true);
    const outcome = await this.remove(id, actor.id);
    if (outcome !== 'ok') fail(outcome);
  }

  /** The admin area's delete of a team (any team; the same team_not_empty rule). */
  async adminDelete(id: string): Promise<void> {
    const outcome = await this.remove(id, null);
    if (outcome !== 'ok') fail(outcome);
  }

  /**
   * Deletes a team with its invites, members and API keys in one transaction that holds the team's
   * row, unless a short or a domain belongs to it (looked for in that transaction) or `ownerId`
   * (when given) is no longer one of its owners.
   */
  private remove(id: string, ownerId: string | null): Promise<Outcome> {
    return runTx(this.ds, this.timeoutMs, function* ({ lock }) {
      const team = (yield rows(`SELECT id FROM teams WHERE id = ?${lock}`, id)) as Row[];
      if (team.length === 0) return 'not_found';
      if (ownerId !== null) {
        const me = (yield rows(
          'SELECT role FROM team_members WHERE team_id = ? AND user_id = ?',
          id,
          ownerId,
        )) as Row[];
        if (me.length === 0) return 'not_found';
        if (me[0].role !== 'owner') return 'forbidden';
      }
      const shorts = (yield rows(
        'SELECT 1 AS one FROM shorts WHERE team_id = ? LIMIT 1',
        id,
      )) as Row[];
      const domains = (yield rows(
        'SELECT 1 AS one FROM domains WHERE team_id = ? LIMIT 1',
        id,
      )) as Row[];
      if (shorts.length > 0 || domains.length > 0) return 'not_empty';
      yield run('DELETE FROM api_keys WHERE team_id = ?', id);
      yield run('DELETE FROM team_invites WHERE team_id = ?', id);
      yield run('DELETE FROM team_members WHERE team_id = ?', id);
      yield run('DELETE FROM teams WHERE id = ?', id);
      return 'ok';
    });
  }

  /** The members of a team (members), by the time they joined. */
  async members(id: string, caller: Actor | null): Promise<TeamMemberDto[]> {
    const actor = this.actor(caller);
    await this.role(actor, id);
    const found: Row[] = await this.ds.query(
      this.sql(
        `SELECT u.id AS id, u.username AS username, u.image_url AS image_url, m.role AS role,
                m.joined_at AS joined_at
           FROM team_members m JOIN users u ON u.id = m.user_id
          WHERE m.team_id = ? ORDER BY m.joined_at, u.username`,
      ),
      [id],
    );
    return found.map((r) => ({
      user: {
        id: String(r.id),
        username: String(r.username),
        imageUrl: r.image_url === null || r.image_url === undefined ? null : String(r.image_url),
      },
      role: r.role as TeamRole,
      joinedAt: iso(r.joined_at),
    }));
  }

  /**
   * Changes a member's role (owners). Demoting the last owner: 409 `team_last_owner`. Decided in
   * one transaction that holds the team's row and reads the roles afresh: of two owners who demote
   * each other at once, the second finds himself no longer an owner (403) or the other the last
   * one (409).
   */
  async setRole(
    id: string,
    userId: string,
    role: TeamRole,
    caller: Actor | null,
  ): Promise<TeamMemberDto> {
    const actor = this.actor(caller);
    await this.role(actor, id, true);
    const outcome = await runTx(this.ds, this.timeoutMs, function* ({ lock }) {
      const team = yield* lockedRoles(id, lock);
      if (team === null) return 'not_found' as Outcome;
      const { roleOf, owners } = team;
      const mine = roleOf(actor.id);
      if (mine === undefined) return 'not_found';
      if (mine !== 'owner') return 'forbidden';
      const theirs = roleOf(userId);
      if (theirs === undefined) return 'member_not_found';
      if (theirs === 'owner' && role !== 'owner' && owners <= 1) return 'last_owner';
      if (theirs !== role) {
        yield run(
          'UPDATE team_members SET role = ? WHERE team_id = ? AND user_id = ?',
          role,
          id,
          userId,
        );
      }
      return 'ok';
    });
    if (outcome !== 'ok') fail(outcome);
    const member = (await this.members(id, actor)).find((m) => m.user.id === userId);
    if (!member) throw memberNotFound();
    return member;
  }

  /**
   * Removes a member (owners; any member may remove himself: leave). The last owner: 409
   * `team_last_owner`. Nothing else goes: the team's shorts stay the team's.
   */
  async removeMember(id: string, userId: string, caller: Actor | null): Promise<void> {
    const actor = this.actor(caller);
    const self = userId === actor.id;
    await this.role(actor, id, !self);
    const outcome = await runTx(this.ds, this.timeoutMs, function* ({ lock }) {
      const team = yield* lockedRoles(id, lock);
      if (team === null) return 'not_found' as Outcome;
      const { roleOf, owners } = team;
      const mine = roleOf(actor.id);
      if (mine === undefined) return 'not_found';
      if (!self && mine !== 'owner') return 'forbidden';
      const theirs = roleOf(userId);
      if (theirs === undefined) return 'member_not_found';
      if (theirs === 'owner' && owners <= 1) return 'last_owner';
      yield run('DELETE FROM team_members WHERE team_id = ? AND user_id = ?', id, userId);
      return 'ok';
    });
    if (outcome !== 'ok') fail(outcome);
  }

  /**
   * A new invite link (owners) for `role`: a token of 256 random bits, stored only as its SHA-256,
   * valid INVITE_DAYS, used once. A team holds at most LIMIT_OPEN_INVITES open invites (409
   * `quota_exceeded`).
   */
  async invite(id: string, role: TeamRole, caller: Actor | null): Promise<TeamInviteDto> {
    const actor = this.actor(caller);
    await this.role(actor, id, true);
    const token = newInviteToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + INVITE_MS);
    const inviteId = randomUUID();
    const outcome = await runTx(this.ds, this.timeoutMs, function* ({ lock }) {
      const team = (yield rows(`SELECT id FROM teams WHERE id = ?${lock}`, id)) as Row[];
      if (team.length === 0) return 'not_found' as const;
      const open = count(
        (yield rows(
          'SELECT COUNT(*) AS n FROM team_invites WHERE team_id = ? AND used_at IS NULL AND expires_at > ?',
          id,
          now,
        )) as Row[],
      );
      if (open >= LIMIT_OPEN_INVITES) return 'quota' as const;
      yield run(
        `INSERT INTO team_invites (id, team_id, token_hash, role, created_by, created_at, expires_at, used_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, NULL)`,
        inviteId,
        id,
        inviteHash(token),
        role,
        actor.id,
        now,
        expiresAt,
      );
      return 'ok' as const;
    });
    if (outcome === 'not_found') throw teamNotFound();
    if (outcome === 'quota') throw this.quota('open invites per team', LIMIT_OPEN_INVITES);
    return {
      token,
      url: `${this.baseUrl}/invite/${encodeURIComponent(token)}`,
      expiresAt: expiresAt.toISOString(),
    };
  }

  /**
   * Joins the team of an invite with its role, and answers the team. An unknown, used or expired
   * token: 404 `invite_invalid`. The invite is used in the transaction that adds the member
   * (`UPDATE … WHERE used_at IS NULL AND expires_at > now` must change its row), which holds the
   * team's row and the user's row, so the team's member cap (LIMIT_TEAM_MEMBERS) and the user's
   * LIMIT_TEAMS are counted exactly (409 `quota_exceeded`, the invite stays unused). A caller who
   * is a member already keeps his role, and the invite stays unused (for whom it was meant).
   */
  async join(token: string, caller: Actor | null): Promise<TeamDto> {
    const actor = this.actor(caller);
    if (!token.startsWith(INVITE_PREFIX) || token.length > 200) throw inviteInvalid();
    const hash = inviteHash(token);
    const now = new Date();
    const maxMembers = this.maxMembers;
    const maxTeams = this.maxTeams;
    const outcome = await runTx(this.ds, this.timeoutMs, function* ({ lock }) {
      const found = (yield rows(
        'SELECT team_id, role FROM team_invites WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?',
        hash,
        now,
      )) as Row[];
      if (found.length === 0) return { kind: 'invalid' as const };
      const teamId = String(found[0].team_id);
      const role = found[0].role as TeamRole;
      const team = (yield rows(`SELECT id FROM teams WHERE id = ?${lock}`, teamId)) as Row[];
      if (team.length === 0) return { kind: 'invalid' as const };
      yield rows(`SELECT id FROM users WHERE id = ?${lock}`, actor.id);
      const existing = (yield rows(
        'SELECT role FROM team_members WHERE team_id = ? AND user_id = ?',
        teamId,
        actor.id,
      )) as Row[];
      if (existing.length > 0) {
        return { kind: 'member' as const, teamId, role: existing[0].role as TeamRole };
      }
      const members = count(
        (yield rows('SELECT COUNT(*) AS n FROM team_members WHERE team_id = ?', teamId)) as Row[],
      );
      if (members >= maxMembers) return { kind: 'team_full' as const };
      const mine = count(
        (yield rows('SELECT COUNT(*) AS n FROM team_members WHERE user_id = ?', actor.id)) as Row[],
      );
      if (mine >= maxTeams) return { kind: 'user_full' as const };
      const used = (yield run(
        'UPDATE team_invites SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?',
        now,
        hash,
        now,
      )) as number;
      if (used !== 1) return { kind: 'invalid' as const };
      yield run(
        'INSERT INTO team_members (team_id, user_id, role, joined_at) VALUES (?, ?, ?, ?)',
        teamId,
        actor.id,
        role,
        now,
      );
      return { kind: 'member' as const, teamId, role };
    });
    switch (outcome.kind) {
      case 'invalid':
        throw inviteInvalid();
      case 'team_full':
        throw this.quota('members per team', maxMembers);
      case 'user_full':
        throw this.quota('teams per user', maxTeams);
      default:
        return this.found(outcome.teamId, outcome.role);
    }
  }

  /**
   * Prepares a user's deletion (in one transaction, before his shorts, domains and account go):
   * refused with 409 `team_last_owner` while he is the last owner of a team that has other members
   * or holds shorts or domains; a team where he is the only member and that is empty is deleted
   * (with its invites and keys); the shorts and domains he created in a team (which would go with
   * his account) are handed to another owner of that team, so they stay the team's; and he leaves
   * every team. His account, his own shorts and domains go afterwards (their owners' services).
   */
  async releaseUser(userId: string): Promise<void> {
    await runTx(this.ds, this.timeoutMs, function* ({ lock }) {
      const mine = (yield rows(
        'SELECT team_id FROM team_members WHERE user_id = ? ORDER BY team_id',
        userId,
      )) as Row[];
      for (const { team_id } of mine) {
        const teamId = String(team_id);
        const team = (yield rows(`SELECT id FROM teams WHERE id = ?${lock}`, teamId)) as Row[];
        if (team.length === 0) continue;
        const roles = (yield rows(
          'SELECT user_id, role FROM team_members WHERE team_id = ? ORDER BY joined_at, user_id',
          teamId,
        )) as Row[];
        const others = roles.filter((r) => r.user_id !== userId);
        const heir = others.find((r) => r.role === 'owner');
        if (heir) {
          yield run(
            'UPDATE shorts SET owner_id = ? WHERE team_id = ? AND owner_id = ?',
            heir.user_id,
            teamId,
            userId,
          );
          yield run(
            'UPDATE domains SET owner_id = ? WHERE team_id = ? AND owner_id = ?',
            heir.user_id,
            teamId,
            userId,
          );
          continue;
        }
        // Thrown, not returned: the statements before (another team's hand-over) roll back.
        if (others.length > 0) throw lastOwner();
        const shorts = (yield rows(
          'SELECT 1 AS one FROM shorts WHERE team_id = ? LIMIT 1',
          teamId,
        )) as Row[];
        const domains = (yield rows(
          'SELECT 1 AS one FROM domains WHERE team_id = ? LIMIT 1',
          teamId,
        )) as Row[];
        if (shorts.length > 0 || domains.length > 0) throw lastOwner();
        yield run('DELETE FROM api_keys WHERE team_id = ?', teamId);
        yield run('DELETE FROM team_invites WHERE team_id = ?', teamId);
        yield run('DELETE FROM team_members WHERE team_id = ?', teamId);
        yield run('DELETE FROM teams WHERE id = ?', teamId);
      }
      // He leaves every team here, with the checks above: an owner who steps down after this
      // counts the owners without him.
      yield run('DELETE FROM team_members WHERE user_id = ?', userId);
    });
  }

  private sql(text: string): string {
    return dialectSql(engineOf(this.ds), text);
  }
}
