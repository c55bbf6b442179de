import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DATETIME } from '../database/columns';

export type BlacklistKind = 'host' | 'regex';

@Entity({ name: 'blacklist' })
export class BlacklistEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** `host` matches the host and its subdomains; `regex` is tested against the whole URL. */
  @Column({ type: 'varchar', length: 8 })
  kind: BlacklistKind;

  /** Normalised host, or the regular expression source. */
  @Column({ type: 'varchar', length: 512 })
  value: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  reason: string | null;

  @Column({ name: 'created_at', ...DATETIME })
  createdAt: Date;
}
