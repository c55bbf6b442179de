import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DATETIME } from '../database/columns';

import type { TeamRole } from '../shared/teams';

/** A team: people who share shorts, domains, keys and webhooks (CONTRACT "Teams"). */
@Entity({ name: 'teams' })
export class TeamEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 64 })
  name: string;

  @Column({ name: 'created_at', ...DATETIME })
  createdAt: Date;
}

/** A user's membership of a team, with his role. */
@Entity({ name: 'team_members' })
export class TeamMemberEntity {
  @PrimaryColumn({ name: 'team_id', type: 'varchar', length: 36 })
  teamId: string;

  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  @Column({ type: 'varchar', length: 8 })
  role: TeamRole;

  @Column({ name: 'joined_at', ...DATETIME })
  joinedAt: Date;
}

/** An invite link: used once, valid 7 days, stored only as the SHA-256 of its token. */
@Entity({ name: 'team_invites' })
export class TeamInviteEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'team_id', type: 'varchar', length: 36 })
  teamId: string;

  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  @Column({ type: 'varchar', length: 8 })
  role: TeamRole;

  @Column({ name: 'created_by', type: 'varchar', length: 36, nullable: true })
  createdBy: string | null;

  @Column({ name: 'created_at', ...DATETIME })
  createdAt: Date;

  @Column({ name: 'expires_at', ...DATETIME })
  expiresAt: Date;

  @Column({ name: 'used_at', ...DATETIME, nullable: true })
  usedAt: Date | null;
}
