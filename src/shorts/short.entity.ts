import {
  Column,
  Entity,
  getMetadataArgsStorage,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import { TeamEntity } from '../teams/team.entity';
import { UserEntity } from '../account/user.entity';
import { DATETIME, FLAG } from '../database/columns';
import type { RedirectRule } from '../shared/redirect-rules';
import { rulesTransformer } from './rules-column';
import { previewFromColumn, previewToColumn, type SocialPreview } from '../shared/social-preview';
import type { HealthState } from '../shared/link-health';

@Entity({ name: 'shorts' })
export class ShortEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** Case-sensitive (binary collation on MySQL), unique per domain. */
  @Column({ type: 'varchar', length: 64 })
  code: string;

  /** The own domain's host the short lives on; '' for this service's own host. */
  @Column({ type: 'varchar', length: 253, default: '' })
  domain: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  name: string | null;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  @Column({ name: 'password_hash', type: 'varchar', length: 255, nullable: true })
  passwordHash: string | null;

  @Column({ name: 'max_uses', type: 'int', nullable: true })
  maxUses: number | null;

  @Column({ type: 'int', default: 0 })
  uses: number;

  @Column({ name: 'created_at', ...DATETIME })
  createdAt: Date;

  @Column({ name: 'expire_at', ...DATETIME, nullable: true })
  expireAt: Date | null;

  @Column({ name: 'owner_id', type: 'varchar', length: 36, nullable: true })
  ownerId: string | null;

  @ManyToOne(() => UserEntity, { nullable: true, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'owner_id' })
  owner?: Relation<UserEntity> | null;

  /**
   * The team the short belongs to, or null (its owner's own space). A team's short is the team's:
   * its rights come from the team's roles; `owner` stays the user who created or moved it.
   */
  @Column({ name: 'team_id', type: 'varchar', length: 36, nullable: true })
  teamId: string | null;

  /** The team (loaded for its name where a short is shown to its members). */
  @ManyToOne(() => TeamEntity, { nullable: true, createForeignKeyConstraints: false })
  @JoinColumn({ name: 'team_id' })
  team?: Relation<TeamEntity> | null;

  /**
   * The short's tags as shown: the spelling first written, comma-joined in the short's order (a
   * tag holds no comma); null without tags. `short_tags` holds them for filtering and counting
   * (ShortTagEntity), written in the same transaction.
   */
  @Column({ type: 'varchar', length: 400, nullable: true })
  tags: string | null;

  @Column({ ...FLAG, default: 0 })
  dangerous: boolean;

  @Column({ name: 'danger_reason', type: 'varchar', length: 32, nullable: true })
  dangerReason: string | null;

  /** Where visitors go after expiry or exhaustion; null: the not-found page. */
  @Column({ name: 'expired_url', type: 'varchar', length: 2048, nullable: true })
  expiredUrl: string | null;

  /** The redirect rules (JSON text); null: none (never an empty list). */
  @Column({ type: 'text', nullable: true, transformer: rulesTransformer })
  rules: RedirectRule[] | null;

  /** The default QR style, `fg,bg,ec,margin` (shared/qr-style.ts); null: none. */
  @Column({ name: 'qr_style', type: 'varchar', length: 24, nullable: true })
  qrStyle: string | null;

  /** The link health (see shared/link-health.ts): null until the first check (`unknown`). */
  @Column({ name: 'health_state', type: 'varchar', length: 8, nullable: true })
  healthState: HealthState | null;

  /** The HTTP status of the last check; null: no answer (or not checked). */
  @Column({ name: 'health_status', type: 'int', nullable: true })
  healthStatus: number | null;

  /** Failed checks in a row (0 after a successful one). */
  @Column({ name: 'health_failures', type: 'int', default: 0 })
  healthFailures: number;

  @Column({ name: 'health_checked_at', ...DATETIME, nullable: true })
  healthCheckedAt: Date | null;

  /** The first of the failed checks in a row; null while the target answers. */
  @Column({ name: 'health_failing_since', ...DATETIME, nullable: true })
  healthFailingSince: Date | null;

  /** The social preview for link cards (JSON text of its non-empty parts); null: none. */
  @Column({
    type: 'text',
    nullable: true,
    transformer: {
      to: (v: SocialPreview | null | undefined) =>
        v === undefined ? undefined : previewToColumn(v),
      from: previewFromColumn,
    },
  })
  preview: SocialPreview | null;
}

/**
 * The SQL name of a ShortEntity property's column (its `@Column` name, else the property), for
 * statements written by hand (the follow read).
 */
export function sqlColumnOf(property: string): string {
  const column = getMetadataArgsStorage().columns.find(
    (c) => c.target === ShortEntity && c.propertyName === property,
  );
  if (!column) throw new Error(`ShortEntity has no column for ${property}`);
  return column.options.name ?? column.propertyName;
}
