import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { DATETIME } from '../database/columns';
import { UTM_NAME_MAX, UTM_VALUE_MAX } from '../shared/utm';
import { TeamEntity } from '../teams/team.entity';

/**
 * A UTM template of a user (own space: `ownerId` set, `teamId` null) or of a team (`teamId` set,
 * `ownerId` null), CONTRACT "Marketing links". Deleting the user or the team deletes its templates
 * (foreign keys ON DELETE CASCADE): they never hold a delete up.
 */
@Entity({ name: 'utm_templates' })
export class UtmTemplateEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'owner_id', type: 'varchar', length: 36, nullable: true })
  ownerId: string | null;

  @Column({ name: 'team_id', type: 'varchar', length: 36, nullable: true })
  teamId: string | null;

  @ManyToOne(() => TeamEntity, { nullable: true, createForeignKeyConstraints: false })
  @JoinColumn({ name: 'team_id' })
  team?: Relation<TeamEntity> | null;

  @Column({ type: 'varchar', length: UTM_NAME_MAX })
  name: string;

  @Column({ type: 'varchar', length: UTM_VALUE_MAX, nullable: true })
  source: string | null;

  @Column({ type: 'varchar', length: UTM_VALUE_MAX, nullable: true })
  medium: string | null;

  @Column({ type: 'varchar', length: UTM_VALUE_MAX, nullable: true })
  campaign: string | null;

  @Column({ type: 'varchar', length: UTM_VALUE_MAX, nullable: true })
  term: string | null;

  @Column({ type: 'varchar', length: UTM_VALUE_MAX, nullable: true })
  content: string | null;

  @Column({ name: 'created_at', ...DATETIME })
  createdAt: Date;
}
