import { Inject, Injectable, type OnApplicationShutdown, Optional } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { In, type Repository } from 'typeorm';
import { teamForbidden } from '../access/access-policy';
import { RateLimitService } from '../limits/rate-limit.service';
import { activeActor, type Actor } from '../common/actor';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  naming,
  UnauthorizedError,
  ValidationFailedError,
} from '../common/errors';
import type { RequestOrigin } from '../common/request';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { CommitOutcomeUnknownError } from '../database/apply-once';
import { dialectSql, engineOf, placeholders } from '../database/dialect';
import { FailureReporter } from '../failure/failure-reporter';
import { CacheBus } from '../redis/cache-bus';
import type { ShortInput } from '../shared/short-fields';
import { cleanTag, isValidTag, MAX_TAGS, normalizeTags, tagKey } from '../shared/tags';
import { type Row, runTx } from '../database/tx';
import { BulkWriterThread } from './bulk-writer-thread';
import type { BulkEditDto, BulkResultDto } from './dto/short-bulk.dto';
import { ShortAccessService } from './short-access.service';
import {
  type BulkPlan,
  type BulkRow,
  type BulkTxInput,
  type BulkTxOutcome,
  bulkWrite,
  chunks,
  spaceAfter,
  tagSpace,
  tagsAfter,
} from './short-bulk-tx';
import { HeldChanges, ShortChangeHub } from './short-change-hub';
import { columnsOf, ShortCreateService } from './short-create.service';
import { followKey, SHORT_CHANGED_CHANNEL, SHORTS_DELETED_CHANNEL } from './short-events';
import { ShortViewService } from './short-view.service';
import { ShortEntity, sqlColumnOf } from './short.entity';
import { TagCountCache } from './tag-count-cache';

/** Ids per read. */
const IDS_PER_READ = 500;
/**
 * Shorts whose webhook events are held, released or read as the API shows them at a time, with a
 * turn of the event loop between: on SQLite an awaited statement runs synchronously and continues
 * without one, and 500 shorts' events (a read and a write each) held the loop for 200 ms at once.
 */
const EVENT_SLICE = 10;

/** The SQL names of the columns a bulk edit writes. */
const COLUMNS: BulkTxInput['columns'] = {
  expireAt: sqlColumnOf('expireAt'),
  maxUses: sqlColumnOf('maxUses'),
  teamId: sqlColumnOf('teamId'),
  ownerId: sqlColumnOf('ownerId'),
};

const notYours = (ids: readonly string[]) =>
  naming(
    new ForbiddenError(
      'Only the owner, its team’s editors or an admin may change these shorts',
      'not_owner',
    ),
    ids,
  );
const tooManyTags = (ids: readonly string[]) =>
  naming(new BadRequestError(`A short carries at most ${MAX_TAGS} tags`, 'too_many_tags'), ids);
const conflict = (ids: readonly string[]) =>
  naming(
    new ConflictError(
      'Shorts of the edit were deleted or moved meanwhile; nothing was changed',
      'bulk_conflict',
    ),
    ids,
  );

/**
 * Bulk edits of a caller's shorts (CONTRACT "Tags and bulk edits"): up to 500 shorts at once get
 * the same expiry, limit or team, tags added or taken off, or are deleted. Every short must be the
 * caller's to write (AccessPolicy, through ShortAccessService), else nothing happens (403 naming
 * the refused ids). The change is one transaction that locks the shorts' rows and reads them
 * afresh: a short deleted or moved meanwhile fails the whole edit (409), nothing written.
 * `shorts.tags` and `short_tags` are written together, as is `short_tags.space` when shorts move.
 * After the commit, as the single edit and delete do: the follow caches drop the shorts, the own
 * list's tag counts drop their spaces (before and after), the statistics forget what they buffered
 * for deleted ones, and the webhooks' held events go out.
 */
@Injectable()
export class ShortBulkService implements OnApplicationShutdown {
  /** The transactions' thread of a SQLite file (null: another engine, or SQLite in memory). */
  private readonly thread: BulkWriterThread | null;

  constructor(
    @InjectRepository(ShortEntity) private readonly repo: Repository<ShortEntity>,
    private readonly access: ShortAccessService,
    private readonly create: ShortCreateService,
    private readonly view: ShortViewService,
    private readonly bus: CacheBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly limits: RateLimitService,
    private readonly tagCounts: TagCountCache,
    @Optional() private readonly changes?: ShortChangeHub,
    @Optional() failures?: FailureReporter,
  ) {
    const ds = repo.manager.connection;
    const file = (ds.options as { database?: unknown }).database;
    this.thread =
      engineOf(ds) === 'sqlite' && typeof file === 'string' && file && file !== ':memory:'
        ? new BulkWriterThread({ file, timeoutMs: config.dbTimeoutMs }, (reason) =>
            failures?.background(
              new Error(`The bulk edits writer's thread ${reason}`),
              'Bulk edits',
              ShortBulkService.name,
            ),
          )
        : null;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.thread?.close();
  }

  async bulk(
    dto: BulkEditDto,
    caller: Actor | null,
    origin?: RequestOrigin,
  ): Promise<BulkResultDto> {
    const actor = activeActor(caller);
    if (!actor) throw new UnauthorizedError();
    // LIMIT_BULK per user (admins too): each call may rewrite 500 shorts in one transaction.
    await this.limits.take('bulk', actor.id);
    const plan = await this.plan(dto, actor, origin);
    const ids = dto.ids;

    // Rights, on the rows as they are now (the transaction makes sure they stay so).
    const found = await this.read(ids);
    const refused = await this.refused(actor, ids, found);
    if (refused.length) throw notYours(refused);
    const shorts = ids.map((id) => found.get(id) as BulkRow);
    if (!plan.delete) {
      const over = shorts.filter((s) => tagsAfter(s, s.tags, plan, actor.id).length > MAX_TAGS);
      if (over.length) throw tooManyTags(over.map((s) => s.id));
    }

    // The webhooks' events (each to the space its short is in after the edit), held before the write.
    const after = shorts.map((s) => ({ ...s, ...spaceAfter(s, plan, actor.id) }));
    const held = await this.hold(plan.delete ? 'short.deleted' : 'short.updated', after);
    let outcome: BulkTxOutcome;
    try {
      outcome = await this.write({ shorts, plan, actorId: actor.id, columns: COLUMNS });
    } catch (err) {
      // It may have committed (CommitOutcomeUnknownError); else nothing was written, and the drop
      // costs only a count.
      this.tagsChanged(shorts, plan, actor.id);
      if (err instanceof CommitOutcomeUnknownError) {
        // It may have committed: the follow caches drop the shorts; the recovery decides the events.
        this.invalidate(shorts);
      } else await held.drop();
      throw err;
    }
    if (outcome.kind !== 'ok') {
      await held.drop();
      if (outcome.kind === 'tooMany') throw tooManyTags(outcome.ids);
      throw conflict(outcome.ids);
    }

    this.invalidate(shorts);
    this.tagsChanged(shorts, plan, actor.id);
    if (plan.delete) {
      this.bus.publish(SHORTS_DELETED_CHANNEL, ids.join(','));
      await held.release(async (slice) => (id) => {
        const s = slice.find((x) => x.id === id) as BulkRow;
        return { id: s.id, code: s.code, domain: s.domain || null };
      });
      return { changed: [], deleted: [...ids] };
    }
    await held.release(async (slice) => {
      const views = await this.views(slice.map((s) => s.id));
      return (id) => views.get(id) ?? null;
    });
    return { changed: [...ids], deleted: [] };
  }

  /**
   * Holds the webhooks' events of these shorts (ShortChangeHub.hold), EVENT_SLICE shorts at a time
   * with a turn of the event loop between; `release` and `drop` go slice by slice as well, and
   * `release` reads a slice's payloads (`answered`) only where an event was held for it.
   */
  private async hold(
    type: 'short.updated' | 'short.deleted',
    shorts: ReadonlyArray<BulkRow>,
  ): Promise<{
    release(answered: (slice: BulkRow[]) => Promise<(id: string) => unknown>): Promise<void>;
    drop(): Promise<void>;
  }> {
    const slices: Array<{ shorts: BulkRow[]; held: HeldChanges }> = [];
    if (this.changes) {
      for (const part of chunks(shorts, EVENT_SLICE)) {
        const held = await this.changes.hold(type, part);
        if (held.size > 0) slices.push({ shorts: part, held });
        await nextTurn();
      }
    }
    return {
      release: async (answered) => {
        for (const { shorts: part, held } of slices) {
          await held.release(part, await answered(part));
          await nextTurn();
        }
      },
      drop: async () => {
        for (const { held } of slices) await held.drop();
      },
    };
  }

  /** Drops the shorts from the follow cache of every instance. */
  private invalidate(shorts: readonly BulkRow[]): void {
    for (const s of shorts) this.bus.publish(SHORT_CHANGED_CHANNEL, followKey(s.domain, s.code));
  }

  /**
   * Drops the own list's tag counts of the spaces whose tag rows the edit wrote: a delete's, a
   * move's (from and to), those of shorts that got or lost tags. An edit of the expiry or the
   * limit alone writes none.
   */
  private tagsChanged(shorts: readonly BulkRow[], plan: BulkPlan, actorId: string): void {
    if (!plan.delete && !plan.moveTo && plan.add.length === 0 && plan.remove.length === 0) return;
    this.tagCounts.spacesChanged(
      shorts.flatMap((s) => [tagSpace(s), tagSpace(spaceAfter(s, plan, actorId))]),
    );
  }

  /**
   * The transaction (bulkWrite): on a SQLite file on its own thread (BulkWriterThread: 500 shorts
   * with 10 new tags each held the event loop 45–70 ms on the app's connection), else through
   * runTx (MariaDB and PostgreSQL: asynchronous; SQLite in memory).
   */
  private write(input: BulkTxInput): Promise<BulkTxOutcome> {
    if (this.thread) return this.thread.write(input);
    return runTx(this.repo.manager.connection, this.config.dbTimeoutMs, (tx) =>
      bulkWrite(tx, input),
    );
  }

  // ---------------------------------------------------------------- checks

  /**
   * The edit, checked: `delete` alone, something to change, the tags by the tag rules (400
   * `tag_invalid`), `set` by the edit's rules and messages (ShortCreateService.checkFields: a past
   * expiry, a limit below 1, a team the caller may not write to: 403 `team_forbidden`).
   */
  private async plan(dto: BulkEditDto, actor: Actor, origin?: RequestOrigin): Promise<BulkPlan> {
    const set: ShortInput = {};
    for (const key of ['expireAt', 'maxUses', 'team'] as const) {
      const value = dto.set?.[key];
      if (value !== undefined) Object.assign(set, { [key]: value });
    }
    const hasSet = Object.keys(set).length > 0;
    const addTags = dto.addTags ?? [];
    const removeTags = dto.removeTags ?? [];
    if (dto.delete === true) {
      if (dto.set !== undefined || dto.addTags !== undefined || dto.removeTags !== undefined) {
        throw new ValidationFailedError(
          { delete: 'excludes set, addTags and removeTags' },
          { delete: 'field_not_allowed' },
        );
      }
      return { delete: true, add: [], remove: [] };
    }
    if (!hasSet && addTags.length === 0 && removeTags.length === 0) {
      throw new ValidationFailedError(
        { set: 'nothing to change: give set, addTags, removeTags or delete: true' },
        { set: 'field_required' },
      );
    }
    const add = normalizeTags(addTags);
    if ('invalid' in add) throw tagInvalid('addTags', addTags.indexOf(add.invalid));
    if ('tooMany' in add) {
      throw new ValidationFailedError(
        { addTags: `at most ${MAX_TAGS} tags` },
        { addTags: 'too_many_tags' },
      );
    }
    const remove: string[] = [];
    for (const [i, raw] of removeTags.entries()) {
      if (!isValidTag(cleanTag(raw))) throw tagInvalid('removeTags', i);
      remove.push(tagKey(raw));
    }
    const plan: BulkPlan = { delete: false, add: add.tags, remove };
    if (!hasSet) return plan;

    const teams = await this.create.teamsFor(actor, [set]);
    const columns = await columnsOf(this.create.checkFields(set, 'edit', actor, origin, teams));
    if (columns.expireAt !== undefined) plan.expireAt = columns.expireAt;
    if (columns.maxUses !== undefined) plan.maxUses = columns.maxUses;
    if (columns.teamId !== undefined) {
      // Into the caller's own space: never through a team's key (as PATCH).
      if (columns.teamId === null && actor.key?.teamId) throw teamForbidden();
      plan.moveTo = { teamId: columns.teamId };
    }
    return plan;
  }

  /** The ids the caller may not write: unknown ones, and those AccessPolicy refuses. */
  private async refused(
    actor: Actor,
    ids: readonly string[],
    found: ReadonlyMap<string, BulkRow>,
  ): Promise<string[]> {
    // One decision per space (a user's own, a team's): the policy's answer depends on nothing else.
    const decided = new Map<string, Promise<boolean>>();
    const refused: string[] = [];
    for (const id of ids) {
      const s = found.get(id);
      if (!s) {
        refused.push(id);
        continue;
      }
      const space = tagSpace(s) ?? 'anonymous';
      let may = decided.get(space);
      if (!may) {
        may = this.access.may(actor, s, 'write');
        decided.set(space, may);
      }
      if (!(await may)) refused.push(id);
    }
    return refused;
  }

  // ---------------------------------------------------------------- reads

  /**
   * The shorts of `ids` that exist, by id: one statement of its own (TypeORM's `find` with an `In`
   * list of 500 took 20 ms of the event loop to build).
   */
  private async read(ids: readonly string[]): Promise<Map<string, BulkRow>> {
    const ds = this.repo.manager.connection;
    const found = new Map<string, BulkRow>();
    for (const part of chunks(ids, IDS_PER_READ)) {
      const list: Row[] = await ds.query(
        dialectSql(
          engineOf(ds),
          `SELECT id, code, domain, ${COLUMNS.ownerId} AS owner_id, ${COLUMNS.teamId} AS team_id, tags FROM shorts WHERE id IN (${placeholders(part.length)})`,
        ),
        part,
      );
      for (const r of list) {
        const id = String(r.id);
        found.set(id, {
          id,
          code: String(r.code),
          domain: String(r.domain ?? ''),
          ownerId: (r.owner_id as string | null) ?? null,
          teamId: (r.team_id as string | null) ?? null,
          tags: (r.tags as string | null) ?? null,
        });
      }
    }
    return found;
  }

  /** The shorts as the API answers their owners (the webhooks' short.updated), by id. */
  private async views(ids: readonly string[]): Promise<Map<string, unknown>> {
    const out = new Map<string, unknown>();
    for (const part of chunks(ids, EVENT_SLICE)) {
      const list = await this.repo.find({
        where: { id: In(part) },
        relations: { owner: true, team: true },
      });
      for (const s of list) out.set(s.id, this.view.toDto(s, true, undefined, true));
    }
    return out;
  }
}

/** 400 `tag_invalid`: the `index`th tag of `field` breaks the tag rules. */
function tagInvalid(field: 'addTags' | 'removeTags', index: number): BadRequestError {
  return new BadRequestError(
    `${field}[${index}] is not a valid tag: 1 to 32 letters, digits, spaces, -, _ and .`,
    'tag_invalid',
  );
}
