import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DATETIME } from '../database/columns';

/**
 * One tag of one short (CONTRACT "Tags and bulk edits"), for filtering and counting: `tag` is the
 * tag's key (lower case: tags that differ only in case are one tag), `space` the short's space
 * (`u:{ownerId}` for a user's own shorts, `t:{teamId}` for a team's: `tagSpaceOf`). The spelling
 * shown is the short's `tags` column. Rows go with their short (foreign key, cascade).
 * `createdAt` is the short's own (copied from its row by the INSERT: short-tags.ts), so a space's
 * shorts with a tag are in the index (space, tag, created_at, short_id) in the list's default
 * order, and a page of the newest tagged shorts reads that index range alone.
 */
@Entity({ name: 'short_tags' })
@Index('IDX_short_tags_space_tag', ['space', 'tag', 'shortId'])
@Index('IDX_short_tags_space_tag_created', ['space', 'tag', 'createdAt', 'shortId'])
export class ShortTagEntity {
  @PrimaryColumn({ name: 'short_id', type: 'varchar', length: 36 })
  shortId: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  tag: string;

  /** The tag as this short spells it. */
  @Column({ type: 'varchar', length: 32 })
  label: string;

  @Column({ type: 'varchar', length: 38 })
  space: string;

  /** The short's `created_at` (never changed: a short's creation time is fixed). */
  @Column({ name: 'created_at', ...DATETIME })
  createdAt: Date;
}

/** The space key of a short's tags: its team's, else its owner's own (anonymous shorts: none). */
export function tagSpaceOf(s: { ownerId: string | null; teamId: string | null }): string | null {
  if (s.teamId) return `t:${s.teamId}`;
  if (s.ownerId) return `u:${s.ownerId}`;
  return null;
}
