import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { DATETIME, FLAG } from '../database/columns';

export const ROLE_USER = 'ROLE_USER';
export const ROLE_ADMIN = 'ROLE_ADMIN';
/** Every role an account can have (admins may grant these). */
export const ROLES = ['ROLE_USER', 'ROLE_ADMIN', 'ROLE_DEVELOPER', 'ROLE_TEAM'] as const;

@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 100 })
  username: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  email: string | null;

  @Column({ name: 'image_url', type: 'varchar', length: 1024, nullable: true })
  imageUrl: string | null;

  @Column({ ...FLAG, default: 1 })
  activated: boolean;

  /** Login provider (github, discord, oidc, dev) and the provider's stable user id. */
  @Column({ type: 'varchar', length: 32 })
  provider: string;

  @Column({ name: 'provider_user_id', type: 'varchar', length: 255 })
  providerUserId: string;

  /** Comma-separated role names (ROLE_USER, ROLE_ADMIN, …). */
  @Column({ type: 'varchar', length: 255, default: ROLE_USER })
  roles: string;

  @CreateDateColumn({ name: 'created_date', ...DATETIME })
  createdDate: Date;
}
