import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { dialectSql, engineOf, placeholders } from '../database/dialect';
import { ShortEntity } from './short.entity';
import type { ShortChange, ShortChangeSink, ShortChangeType } from './short-events';
import { ShortRepository } from './short.repository';
import { ShortViewService } from './short-view.service';

/** Ids per query of ShortChangeHub.identities, and the multiple its lists are padded to. */
const IDENTITY_CHUNK = 500;
const IDENTITY_PAD = 50;

/**
 * The port through which the shorts module reports its changes (ShortChangeSink): nothing is done
 * while no sink is registered. A create, edit or delete holds its events before it is written and
 * releases them before its answer (HeldChanges), so the outbox holds them before the change exists
 * and a stopped process loses none.
 */
/**
 * The events of one create, edit or delete, held in the outbox before it was written: `release`
 * once it is committed, `drop` when it failed. Neither throws: rows a failure leaves held are
 * decided by the recovery (ShortChangeHub.decideHeld) a little later, so a change that was
 * committed is never answered with an error because of its event.
 */
export class HeldChanges {
  private static readonly logger = new Logger('ShortChangeHub');
  /** Of a change that has no held event (no sink, anonymous shorts, no webhook wants it). */
  static readonly none = new HeldChanges(null, new Map(), async () => null);

  constructor(
    private readonly sink: ShortChangeSink | null,
    private readonly events: ReadonlyMap<string, string>,
    private readonly view: (id: string) => Promise<unknown>,
  ) {}

  get size(): number {
    return this.events.size;
  }

  /**
   * The change of these shorts is committed: their events go out, each with `answered` (the same
   * for each: an edit's answer, a delete's identity) or else the short's view now.
   */
  async release(
    written: ReadonlyArray<Pick<ShortChange, 'id'>>,
    answered?: (id: string) => unknown,
  ): Promise<void> {
    const sink = this.sink;
    if (!sink) return;
    for (const s of written) {
      const eventId = this.events.get(s.id);
      if (!eventId) continue;
      try {
        const data = answered ? answered(s.id) : await this.view(s.id);
        if (data === null || data === undefined) await sink.drop([eventId]);
        else await sink.release(eventId, data);
      } catch (err) {
        HeldChanges.logger.warn(
          `An event of a committed change stays held for the recovery: ${(err as Error).message}`,
        );
      }
    }
  }

  /** The change failed (for all of these shorts, or for `only` of them): their events go. */
  async drop(only?: ReadonlyArray<Pick<ShortChange, 'id'>>): Promise<void> {
    if (!this.sink || this.events.size === 0) return;
    const ids = only
      ? only.map((s) => this.events.get(s.id)).filter((e): e is string => e !== undefined)
      : [...this.events.values()];
    if (ids.length === 0) return;
    await this.sink.drop(ids).catch((err: unknown) => {
      HeldChanges.logger.warn(
        `Events of a failed change stay held for the recovery: ${(err as Error).message}`,
      );
    });
  }
}

@Injectable()
export class ShortChangeHub {
  private sink: ShortChangeSink | null = null;

  constructor(
    private readonly shorts: ShortRepository,
    private readonly view: ShortViewService,
    @InjectRepository(ShortEntity) private readonly repo: Repository<ShortEntity>,
  ) {}

  /**
   * The identity and space of these shorts (the ones that exist), IDENTITY_CHUNK ids per query,
   * with a turn of the event loop between queries. Plain SQL: a statistics batch asks for up to
   * FOLLOWED_MAX shorts (the webhooks' `short.followed`), and on SQLite, whose driver answers
   * synchronously, `find` (its query builder and entity hydration, between which only microtasks
   * ran) held the event loop for 75-95 ms of its own CPU at a time in the bench's browser cache
   * misses; the rows themselves cost about 4 µs a short. A chunk's list is padded with its last id
   * to a multiple of IDENTITY_PAD, so that a handful of statement texts repeat in the driver's
   * statement cache.
   */
  async identities(ids: readonly string[]): Promise<ShortChange[]> {
    const out: ShortChange[] = [];
    for (let i = 0; i < ids.length; i += IDENTITY_CHUNK) {
      if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      const chunk = ids.slice(i, i + IDENTITY_CHUNK);
      const padded = chunk.length === 1 ? 1 : Math.ceil(chunk.length / IDENTITY_PAD) * IDENTITY_PAD;
      while (chunk.length < padded) chunk.push(chunk[chunk.length - 1]);
      const rows = (await this.repo.manager.query(this.identitySql(padded), chunk)) as Array<{
        id: string;
        code: string;
        domain: string;
        owner_id: string | null;
        team_id: string | null;
      }>;
      for (const r of rows) {
        out.push({
          id: r.id,
          code: r.code,
          domain: r.domain,
          ownerId: r.owner_id,
          teamId: r.team_id,
        });
      }
    }
    return out;
  }

  /** identities' statement for `n` ids (one id, or a multiple of IDENTITY_PAD up to IDENTITY_CHUNK). */
  private identitySql(n: number): string {
    let sql = this.identitySqls.get(n);
    if (sql === undefined) {
      sql = dialectSql(
        engineOf(this.repo.manager.connection),
        `SELECT id, code, domain, owner_id, team_id FROM shorts WHERE id IN (${placeholders(n)})`,
      );
      this.identitySqls.set(n, sql);
    }
    return sql;
  }
  private readonly identitySqls = new Map<number, string>();

  use(sink: ShortChangeSink): void {
    this.sink = sink;
  }

  /**
   * A short's link health changed state (src/link-health): reported with its identity, the state
   * before and the health now (as `Short.health` shows it).
   */
  async healthChanged(id: string, previous: string, health: unknown): Promise<void> {
    if (!this.sink) return;
    const [s] = await this.identities([id]);
    if (!s) return;
    const short = { id: s.id, code: s.code, domain: s.domain || null };
    await this.report('short.health_changed', [s], { short, previous, health });
  }

  /**
   * Holds the events of a change of `shorts` before it is written (each with its space after the
   * change): see HeldChanges. Anonymous shorts have no webhooks and cost nothing.
   */
  async hold(type: ShortChangeType, shorts: readonly ShortChange[]): Promise<HeldChanges> {
    const sink = this.sink;
    if (!sink) return HeldChanges.none;
    const owned = shorts.filter((s) => s.ownerId !== null || s.teamId !== null);
    if (owned.length === 0) return HeldChanges.none;
    const events = await sink.hold(type, owned);
    if (events.size === 0) return HeldChanges.none;
    return new HeldChanges(sink, events, (id) => this.viewOf(id));
  }

  /**
   * A held event whose release never came (the process stopped): its payload from what the
   * database holds now, or null when the change did not happen (a created or edited short that
   * does not exist, a deleted one that still does). An edit that failed in a process that then
   * stopped is sent too, with the short as it is (its webhook-id lets a receiver see it once).
   */
  async decideHeld(
    type: string,
    short: { id: string; code: string; domain: string | null },
  ): Promise<{ data: unknown } | null> {
    if (type === 'short.deleted') {
      const [s] = await this.identities([short.id]);
      return s ? null : { data: short };
    }
    const data = await this.viewOf(short.id);
    return data === null ? null : { data };
  }

  /** A short as the API answers its owner, or null when it is gone. */
  private async viewOf(id: string): Promise<unknown> {
    const full = await this.shorts.findByIdWithOwner(id);
    return full ? this.view.toDto(full, true, undefined, true) : null;
  }

  async report(
    type: ShortChangeType,
    shorts: readonly ShortChange[],
    answered?: unknown,
  ): Promise<void> {
    const sink = this.sink;
    if (!sink) return;
    for (const s of shorts) {
      if (s.ownerId === null && s.teamId === null) continue; // anonymous shorts have no webhooks
      await sink.changed(type, s, async () =>
        answered !== undefined ? answered : this.viewOf(s.id),
      );
    }
  }
}
