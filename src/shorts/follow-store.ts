import { Injectable } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import { applyOnce } from '../database/apply-once';
import { type FollowRow, ShortFollowRepository } from './short-follow.repository';

export { ClaimOutcomeUnknownError, type FollowRow } from './short-follow.repository';

export { followKey, SHORT_CHANGED_CHANNEL } from './short-events';

/**
 * What the redirect engine (src/follow) reads and writes of the `shorts` table, and nothing else:
 * the lookup by code, whether a use is left, the atomic use claim, and the buffered use counts of
 * unlimited shorts (written by the follow engine, or by the statistics in their batch). The shorts
 * module stays the one owner of the table; this is its port.
 */
@Injectable()
export class FollowStore {
  constructor(private readonly shorts: ShortFollowRepository) {}

  /**
   * What a follow needs of a short, by domain and code (a SELECT on the unique index; concurrent
   * reads batched on MariaDB and PostgreSQL). SQLite's read answers at once, without a promise.
   */
  findForFollow(domain: string, code: string): FollowRow | null | Promise<FollowRow | null> {
    return this.shorts.findForFollow(domain, code);
  }

  /** Whether the short exists and has a use left (a bot's preview of a limited short). */
  hasUseLeft(id: string): Promise<boolean> {
    return this.shorts.hasUseLeft(id);
  }

  /** The one atomic use claim; throws ClaimOutcomeUnknownError when its outcome was lost. */
  claimUse(id: string): Promise<boolean> {
    return this.shorts.claimUse(id);
  }

  /** Adds a batch of buffered use counts exactly once (see applyOnce). */
  writeUses(batchId: string, counts: ReadonlyMap<string, number>): Promise<boolean> {
    return applyOnce(this.shorts.dataSource, batchId, (runner) =>
      this.shorts.addUses(runner, counts),
    );
  }

  /**
   * Adds buffered use counts inside a batch transaction of another module (the statistics carry
   * the follow path's use counts in their batch: see FollowService.useCounter).
   */
  addUses(runner: QueryRunner, counts: ReadonlyMap<string, number>): Promise<void> {
    return this.shorts.addUses(runner, counts);
  }

  /** Which of `ids` are shorts that exist (the statistics' batch drops the deleted ones). */
  existingIds(ids: readonly string[]): Promise<Set<string>> {
    return this.shorts.existingIds(ids);
  }
}
