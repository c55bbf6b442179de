import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { DATETIME } from '../database/columns';
import type { PageTheme } from '../shared/pages';
import { TeamEntity } from '../teams/team.entity';

/** A page of links of a user (own space) or of a team, public at `/p/{slug}`. */
@Entity({ name: 'pages' })
export class PageEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** Case-sensitive (binary collation on MySQL), unique per instance. */
  @Column({ type: 'varchar', length: 64 })
  slug: string;

  /**
   * Who created it (its rights come from the team when `teamId` is set); null once he is deleted
   * (a team's page stays the team's; an own page is then shown nowhere and removed by the sweep).
   */
  @Column({ name: 'owner_id', type: 'varchar', length: 36, nullable: true })
  ownerId: string | null;

  @Column({ name: 'team_id', type: 'varchar', length: 36, nullable: true })
  teamId: string | null;

  @ManyToOne(() => TeamEntity, { nullable: true, createForeignKeyConstraints: false })
  @JoinColumn({ name: 'team_id' })
  team?: Relation<TeamEntity> | null;

  @Column({ type: 'varchar', length: 120 })
  title: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 8 })
  theme: PageTheme;

  @Column({ name: 'created_at', ...DATETIME })
  createdAt: Date;

  @Column({ name: 'updated_at', ...DATETIME })
  updatedAt: Date;
}

/**
 * One link of a page: the short it follows and its label, at its position (from 0). Rows rather
 * than a JSON column: a deleted short drops out by the foreign key (no dangling ids to skip or
 * clean), the public page reads its links with the shorts in one join, and "which pages show this
 * short" is an index lookup.
 */
@Entity({ name: 'page_links' })
export class PageLinkEntity {
  @PrimaryColumn({ name: 'page_id', type: 'varchar', length: 36 })
  pageId: string;

  @PrimaryColumn({ type: 'int' })
  position: number;

  @Column({ name: 'short_id', type: 'varchar', length: 36 })
  shortId: string;

  @Column({ type: 'varchar', length: 120, nullable: true })
  label: string | null;
}
