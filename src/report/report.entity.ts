import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DATETIME } from '../database/columns';

export const REPORT_REASONS = [
  'CHILD_ABUSE',
  'HARMFUL',
  'HATEFUL',
  'ILLEGAL',
  'MOBBING',
  'SEXUAL_CONTENT',
  'SPAM',
  'TERRORISM',
  'VIOLENCE',
  'OTHER',
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** Moderation state: new reports are open; an admin dismisses them or acts on them. */
export const REPORT_STATES = ['open', 'dismissed', 'actioned'] as const;
export type ReportState = (typeof REPORT_STATES)[number];

/** One user's report of one short (unique per short and reporter). */
@Entity({ name: 'reports' })
export class ReportEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'short_id', type: 'varchar', length: 36 })
  shortId: string;

  @Column({ name: 'reporter_id', type: 'varchar', length: 36 })
  reporterId: string;

  @Column({ type: 'varchar', length: 32 })
  reason: ReportReason;

  @Column({ type: 'varchar', length: 2000 })
  description: string;

  @Column({ type: 'varchar', length: 16, default: 'open' })
  state: ReportState;

  @Column({ name: 'created_at', ...DATETIME })
  createdAt: Date;
}
