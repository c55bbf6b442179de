import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { TeamEntity } from '../teams/team.entity';
import { UserEntity } from '../account/user.entity';
import { DATETIME, FLAG } from '../database/columns';

/**
 * An own domain (CONTRACT "Own domains"): a host under which shorts are followed. Shared domains
 * (no owner) are added by admins and verified at once; a user's own domain is verified through a
 * TXT record and re-checked daily.
 */
@Entity({ name: 'domains' })
export class DomainEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /**
   * Lower case, punycode, no port. Several users may claim one host while it is pending; one user
   * holds one claim per host.
   */
  @Column({ type: 'varchar', length: 253 })
  host: string;

  /**
   * `host` while the domain is verified, null while it is pending: unique, so a host is verified
   * for one domain at most (pending claims share a host freely; see the DomainClaims migration).
   */
  @Column({ name: 'verified_host', type: 'varchar', length: 253, nullable: true })
  verifiedHost: string | null;

  /** null: shared (every logged-in user may use it). */
  @Column({ name: 'owner_id', type: 'varchar', length: 36, nullable: true })
  ownerId: string | null;

  @ManyToOne(() => UserEntity, { nullable: true, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'owner_id' })
  owner?: Relation<UserEntity> | null;

  /** The team the domain belongs to, or null; its rights then come from the team's roles. */
  @Column({ name: 'team_id', type: 'varchar', length: 36, nullable: true })
  teamId: string | null;

  @ManyToOne(() => TeamEntity, { nullable: true, createForeignKeyConstraints: false })
  @JoinColumn({ name: 'team_id' })
  team?: Relation<TeamEntity> | null;

  @Column({ ...FLAG, default: 0 })
  verified: boolean;

  /** false: disabled (verification failed for 7 days, or by an admin); its follows go not-found. */
  @Column({ ...FLAG, default: 1 })
  enabled: boolean;

  @Column({ name: 'home_redirect', type: 'varchar', length: 2048, nullable: true })
  homeRedirect: string | null;

  @Column({ name: 'not_found_redirect', type: 'varchar', length: 2048, nullable: true })
  notFoundRedirect: string | null;

  /** The link page its `/` shows (src/pages; cleared when the page is deleted), or null. */
  @Column({ name: 'home_page', type: 'varchar', length: 36, nullable: true })
  homePage: string | null;

  /** The value of the TXT record (`url-shorter-verify={token}`). */
  @Column({ type: 'varchar', length: 64 })
  token: string;

  @Column({ name: 'checked_at', ...DATETIME, nullable: true })
  checkedAt: Date | null;

  /** Since when the checks fail (null while they pass). */
  @Column({ name: 'failing_since', ...DATETIME, nullable: true })
  failingSince: Date | null;

  /** Why the last check failed (a VerifyFailure key), or null. */
  @Column({ name: 'fail_reason', type: 'varchar', length: 32, nullable: true })
  failReason: string | null;

  @Column({ name: 'created_at', ...DATETIME })
  createdAt: Date;
}
