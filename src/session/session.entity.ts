import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DATETIME } from '../database/columns';

/** One server-side session (express-session data as JSON). */
@Entity({ name: 'sessions' })
export class SessionEntity {
  @PrimaryColumn({ type: 'varchar', length: 128 })
  sid: string;

  @Column({ type: 'text' })
  data: string;

  @Column({ name: 'expires_at', ...DATETIME })
  expiresAt: Date;
}
