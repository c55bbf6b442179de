import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DATETIME } from '../database/columns';

/** A user's API key: the SHA-256 hash for lookup and an encrypted copy, never the clear key. */
@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  @Column({ name: 'key_hash', type: 'varchar', length: 64 })
  keyHash: string;

  @Column({ name: 'key_encrypted', type: 'varchar', length: 255 })
  keyEncrypted: string;

  @Column({ name: 'created_at', ...DATETIME })
  createdAt: Date;

  /** Unique per user; the spec's single key is the one named `ShareX`. */
  @Column({ type: 'varchar', length: 64, default: 'ShareX' })
  name: string;

  /** The key's first characters, shown in lists so its holder recognises it. */
  @Column({ type: 'varchar', length: 16, default: '' })
  prefix: string;

  /** Comma-separated scopes (`shorts:read,shorts:write`, see API_KEY_SCOPES). */
  @Column({ type: 'varchar', length: 255, default: 'shorts:read,shorts:write' })
  scopes: string;

  /** The team the key acts for, or null (its user's own rights). */
  @Column({ name: 'team_id', type: 'varchar', length: 36, nullable: true })
  teamId: string | null;

  @Column({ name: 'expires_at', ...DATETIME, nullable: true })
  expiresAt: Date | null;

  /** Written at most once a minute per key. */
  @Column({ name: 'last_used_at', ...DATETIME, nullable: true })
  lastUsedAt: Date | null;
}
