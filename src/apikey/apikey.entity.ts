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
}
