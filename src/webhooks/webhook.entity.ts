import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { DATETIME, FLAG } from '../database/columns';
import { TeamEntity } from '../teams/team.entity';

/** A webhook of a user (own space) or of a team (CONTRACT "Webhooks"). */
@Entity({ name: 'webhooks' })
export class WebhookEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /**
   * Who created it (its rights come from the team when `teamId` is set); null once he is deleted
   * (a team's webhook stays the team's; an own one is removed by the cleanup).
   */
  @Column({ name: 'owner_id', type: 'varchar', length: 36, nullable: true })
  ownerId: string | null;

  @Column({ name: 'team_id', type: 'varchar', length: 36, nullable: true })
  teamId: string | null;

  @ManyToOne(() => TeamEntity, { nullable: true, createForeignKeyConstraints: false })
  @JoinColumn({ name: 'team_id' })
  team?: Relation<TeamEntity> | null;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  /** Comma list of the event types it receives. */
  @Column({ type: 'varchar', length: 512 })
  events: string;

  /** The signing secret, encrypted (never logged, shown once). */
  @Column({ type: 'varchar', length: 255 })
  secret: string;

  @Column({ ...FLAG, default: 1 })
  enabled: boolean;

  @Column({ name: 'disabled_reason', type: 'varchar', length: 255, nullable: true })
  disabledReason: string | null;

  /** Since when its deliveries fail (null while they pass). */
  @Column({ name: 'failing_since', ...DATETIME, nullable: true })
  failingSince: Date | null;

  @Column({ name: 'created_at', ...DATETIME })
  createdAt: Date;
}

/**
 * `held`: written before the change it reports and not sent until that change is committed
 * (WebhookService.hold); never listed.
 */
export type DeliveryStatus = 'held' | 'pending' | 'delivered' | 'failed';

/** One event for one webhook: the outbox row, its attempts and its lease. */
@Entity({ name: 'webhook_deliveries' })
export class WebhookDeliveryEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'event_id', type: 'varchar', length: 40 })
  eventId: string;

  @Column({ name: 'webhook_id', type: 'varchar', length: 36 })
  webhookId: string;

  @Column({ type: 'varchar', length: 32 })
  type: string;

  @Column({ type: 'text' })
  payload: string;

  @Column({ type: 'varchar', length: 10 })
  status: DeliveryStatus;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ name: 'next_attempt_at', ...DATETIME })
  nextAttemptAt: Date;

  @Column({ name: 'last_status_code', type: 'int', nullable: true })
  lastStatusCode: number | null;

  @Column({ name: 'last_error', type: 'varchar', length: 255, nullable: true })
  lastError: string | null;

  @Column({ name: 'duration_ms', type: 'int', nullable: true })
  durationMs: number | null;

  @Column({ name: 'created_at', ...DATETIME })
  createdAt: Date;

  @Column({ name: 'delivered_at', ...DATETIME, nullable: true })
  deliveredAt: Date | null;

  @Column({ name: 'lease_holder', type: 'varchar', length: 36, nullable: true })
  leaseHolder: string | null;

  @Column({ name: 'lease_until', ...DATETIME, nullable: true })
  leaseUntil: Date | null;
}
