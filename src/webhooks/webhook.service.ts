import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes, randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { In, IsNull, Not, type Repository } from 'typeorm';
import { AccessPolicy } from '../access/access-policy';
import { ApiKeyCipher } from '../apikey/apikey.crypto';
import { activeActor, type Actor, isAdmin } from '../common/actor';
import { BoundedMap } from '../common/bounded-map';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
  ValidationFailedError,
} from '../common/errors';
import { type Page, type PageRequest, toPage } from '../common/paging';
import { APP_CONFIG, type AppConfig, appSecretOf } from '../config/config';
import { dialectSql, engineOf } from '../database/dialect';
import { type PlainInsert, plainInsertOf } from '../database/plain-insert';
import { sqliteDatetime } from '../database/sqlite-batch-source';
import { RateLimitService } from '../limits/rate-limit.service';
import { classifyAddress } from '../metadata/address-policy';
import { CacheBus } from '../redis/cache-bus';
import type {
  CreatedWebhookDto,
  CreateWebhookDto,
  UpdateWebhookDto,
  WebhookDeliveryDto,
  WebhookDto,
} from './dto/webhook.dto';
import {
  type EventSpace,
  LIMIT_WEBHOOKS,
  WEBHOOK_EVENTS,
  type WebhookEventType,
} from './webhook-events';
import { WebhookDeliveryEntity, WebhookEntity } from './webhook.entity';

/** Webhooks changed in a space (`u:{ownerId}` or `t:{teamId}`): every instance drops its cache. */
export const WEBHOOKS_CHANGED_CHANNEL = 'webhooks-changed';

/**
 * A URL the webhooks refuse: 400 with `errorKey: webhook_url_invalid` (CONTRACT "Webhooks") and
 * the reason as the `url` field's error.
 */
export class WebhookUrlInvalid extends ValidationFailedError {
  override readonly errorKey = 'webhook_url_invalid';

  constructor(why: string) {
    super({ url: why }, { url: 'webhook_url_invalid' });
    this.message = `Webhook URL not allowed: ${why}`;
  }
}

const webhookNotFound = () => new NotFoundError('Webhook not exists', 'webhook_unknown');

/** Spaces whose subscriptions are cached at most, and how long an entry is trusted. */
const CACHE_SPACES = 10_000;
const CACHE_TTL_MS = 60_000;

/** A webhook as the event path needs it. */
interface Subscriber {
  id: string;
  events: ReadonlySet<string>;
}

/** What a held event keeps of its short until it is released: the short's identity. */
export interface HeldShort {
  id: string;
  code: string;
  domain: string | null;
}

/** Decides a held event from the database: its payload now, or null (the change did not happen). */
export type HeldDecider = (
  type: WebhookEventType,
  short: HeldShort,
) => Promise<{ data: unknown } | null>;

/**
 * `short.followed` events per webhook and second at most (a token bucket of FOLLOWED_BURST on each
 * instance); the visits beyond are counted in the statistics only.
 */
export const FOLLOWED_PER_SECOND = 20;
export const FOLLOWED_BURST = 200;

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Outbox rows per INSERT: 50 (15 columns: 750 parameters), then 10 and 1 for the rest. */
const INSERT_CHUNKS = [50, 10, 1] as const;

/** How long a held event waits for its release before a recovery decides it (a stopped process). */
export const HELD_GRACE_MS = 20_000;

function spaceKey(space: EventSpace): string | null {
  if (space.teamId) return `t:${space.teamId}`;
  if (space.ownerId) return `u:${space.ownerId}`;
  return null;
}

/** A new signing secret: `whsec_` and 32 random bytes in base64 (Standard Webhooks). */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Webhooks (CONTRACT "Webhooks"): their management (rights through the AccessPolicy, at most
 * LIMIT_WEBHOOKS per user or team, the secret stored encrypted and shown once) and the outbox's
 * writes (`emit`): one `webhook_deliveries` row per event and subscribed webhook, written before
 * the change's answer. Who subscribes to what is cached per space (bounded), dropped on every
 * instance through the cache bus when a webhook of that space changes, so a change in a space
 * without webhooks costs no query.
 */
@Injectable()
export class WebhookService {
  private readonly logger = new Logger(WebhookService.name);
  private readonly cipher: ApiKeyCipher;
  private readonly allowLoopback: boolean;
  private readonly allowedPorts: ReadonlySet<number>;
  private cache = new BoundedMap<string, readonly Subscriber[]>(CACHE_SPACES, CACHE_TTL_MS);
  /** Bumped by every invalidation: a load that started before one does not fill the cache. */
  private generation = 0;
  /** Called after rows were written (the delivery job sends them at once). */
  private onEmitted: (() => void) | null = null;

  constructor(
    @InjectRepository(WebhookEntity) private readonly repo: Repository<WebhookEntity>,
    @InjectRepository(WebhookDeliveryEntity)
    private readonly deliveries: Repository<WebhookDeliveryEntity>,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly policy: AccessPolicy,
    private readonly limits: RateLimitService,
    private readonly bus: CacheBus,
  ) {
    this.cipher = new ApiKeyCipher(appSecretOf(config));
    this.allowLoopback = config.metadataAllowLoopback;
    this.allowedPorts = new Set(config.metadataAllowedPorts);
    bus.on(WEBHOOKS_CHANGED_CHANNEL, (key) => {
      this.generation++;
      this.cache.delete(key);
      this.refreshFlags().catch(() => undefined);
    });
    bus.onResync(() => {
      this.generation++;
      this.cache = new BoundedMap(CACHE_SPACES, CACHE_TTL_MS);
    });
  }

  private get engine() {
    return engineOf(this.repo.manager.connection);
  }

  private sql(text: string): string {
    return dialectSql(this.engine, text);
  }

  /** The delivery job registers how to be woken after an emit. */
  useWakeUp(wake: () => void): void {
    this.onEmitted = wake;
  }

  // ---------------------------------------------------------------- management

  /**
   * A team's webhooks (`team`: members), or without it the caller's own and his teams' (a team's
   * key: its team's).
   */
  async list(caller: Actor | null, team: string | undefined): Promise<WebhookDto[]> {
    const actor = this.actor(caller);
    const teamId = await this.policy.readableTeam(actor, team);
    const teams = teamId ? [teamId] : await this.policy.readableTeams(actor);
    const own = teamId ? [] : [{ ownerId: actor.id, teamId: IsNull() }];
    const rows = await this.repo.find({
      where: [...own, ...(teams.length ? [{ teamId: In(teams) }] : [])],
      relations: { team: true },
      order: { createdAt: 'ASC' },
    });
    return rows.map((w) => this.toDto(w));
  }

  async create(dto: CreateWebhookDto, caller: Actor | null): Promise<CreatedWebhookDto> {
    const actor = this.actor(caller);
    const teamId = await this.policy.writableTeam(actor, dto.team);
    this.checkUrl(dto.url);
    if (!isAdmin(actor)) await this.limits.take('userCreate', actor.id);
    const secret = newSecret();
    const id = randomUUID();
    const w = this.repo.create({
      id,
      ownerId: actor.id,
      teamId,
      url: dto.url,
      events: this.events(dto.events),
      secret: this.cipher.encrypt(secret, id),
      enabled: true,
      disabledReason: null,
      failingSince: null,
      createdAt: new Date(),
    });
    if (!(await this.insertCapped(w))) {
      throw new ConflictError(
        `Quota exceeded: at most ${LIMIT_WEBHOOKS} webhooks per user or team`,
        'quota_exceeded',
      );
    }
    this.changed(w);
    return { ...this.toDto(await this.find(id)), secret };
  }

  /**
   * Inserts a webhook unless its space holds LIMIT_WEBHOOKS already; false when refused (nothing
   * written). SQLite: one `INSERT … SELECT … WHERE (the count) < cap` (one writer at a time);
   * MariaDB and PostgreSQL: one READ COMMITTED transaction that locks the space's row (the team's,
   * or the user's: `FOR UPDATE`), counts and inserts, so parallel creates wait for each other.
   */
  private async insertCapped(w: WebhookEntity): Promise<boolean> {
    const where = w.teamId ? 'team_id = ?' : 'owner_id = ? AND team_id IS NULL';
    const spaceId = w.teamId ?? w.ownerId;
    if (this.engine === 'sqlite') {
      const cols = ['id', 'owner_id', 'team_id', 'url', 'events', 'secret', 'enabled'];
      const values = [w.id, w.ownerId, w.teamId, w.url, w.events, w.secret, 1];
      const runner = this.repo.manager.connection.createQueryRunner();
      try {
        const res = await runner.query(
          `INSERT INTO webhooks (${cols.join(', ')}, created_at) SELECT ${cols.map(() => '?').join(', ')}, ? WHERE (SELECT COUNT(*) FROM webhooks WHERE ${where}) < ?`,
          [...values, sqliteDatetime(w.createdAt), spaceId, LIMIT_WEBHOOKS],
          true,
        );
        return res.affected === 1;
      } finally {
        await runner.release();
      }
    }
    return this.repo.manager.transaction('READ COMMITTED', async (m) => {
      await m.query(
        this.sql(`SELECT id FROM ${w.teamId ? 'teams' : 'users'} WHERE id = ? FOR UPDATE`),
        [spaceId],
      );
      const [row] = (await m.query(this.sql(`SELECT COUNT(*) AS n FROM webhooks WHERE ${where}`), [
        spaceId,
      ])) as Array<{ n: number | string }>;
      if (Number(row.n) >= LIMIT_WEBHOOKS) return false;
      await m.insert(WebhookEntity, w);
      return true;
    });
  }

  async update(id: string, dto: UpdateWebhookDto, caller: Actor | null): Promise<WebhookDto> {
    const w = await this.managed(id, caller, 'write');
    const changes: Partial<WebhookEntity> = {};
    if (dto.url !== undefined) {
      this.checkUrl(dto.url);
      changes.url = dto.url;
    }
    if (dto.events !== undefined) changes.events = this.events(dto.events);
    if (dto.enabled !== undefined) {
      changes.enabled = dto.enabled;
      changes.disabledReason = null;
      if (dto.enabled) changes.failingSince = null;
    }
    if (Object.keys(changes).length) {
      await this.repo.update({ id: w.id }, changes);
      this.changed(w);
    }
    return this.toDto(await this.find(w.id));
  }

  async delete(id: string, caller: Actor | null): Promise<void> {
    const w = await this.managed(id, caller, 'write');
    await this.deliveries.delete({ webhookId: w.id });
    await this.repo.delete({ id: w.id });
    this.changed(w);
  }

  async deliveriesOf(
    id: string,
    caller: Actor | null,
    req: PageRequest,
  ): Promise<Page<WebhookDeliveryDto>> {
    const w = await this.managed(id, caller, 'read');
    const [rows, total] = await this.deliveries.findAndCount({
      where: { webhookId: w.id, status: Not('held') },
      order: { createdAt: req.sort[0]?.direction ?? 'DESC', id: 'ASC' },
      skip: req.page * req.size,
      take: req.size,
    });
    return toPage(
      rows.map((d) => deliveryDto(d)),
      total,
      req,
    );
  }

  /** The webhook `id` when the caller may `access` it (401, 403 `not_owner`, 404). */
  async managed(
    id: string,
    caller: Actor | null,
    access: 'read' | 'write',
  ): Promise<WebhookEntity> {
    const actor = this.actor(caller);
    const w = await this.repo.findOne({ where: { id }, relations: { team: true } });
    if (!w) throw webhookNotFound();
    const owned = { ownerId: w.teamId ? null : w.ownerId, teamId: w.teamId };
    if (!(await this.policy.may(actor, owned, access))) {
      throw new ForbiddenError(
        'Only the owner, its team’s editors or an admin may do this',
        'not_owner',
      );
    }
    return w;
  }

  /** The delivery `deliveryId` of webhook `id` when the caller may write the webhook. */
  async managedDelivery(
    id: string,
    deliveryId: string,
    caller: Actor | null,
  ): Promise<{ webhook: WebhookEntity; delivery: WebhookDeliveryEntity }> {
    const webhook = await this.managed(id, caller, 'write');
    const delivery = await this.deliveries.findOne({
      where: { id: deliveryId, webhookId: id, status: Not('held') },
    });
    if (!delivery) throw new NotFoundError('Delivery not exists', 'webhook_unknown');
    return { webhook, delivery };
  }

  /** The plain secret of a webhook (for signing; never logged). */
  secretOf(w: Pick<WebhookEntity, 'id' | 'secret'>): string {
    return this.cipher.decrypt(w.secret, w.id);
  }

  // ---------------------------------------------------------------- events

  /**
   * Writes an event to the outbox for every enabled webhook of `space` that subscribes to `type`
   * (or for `only` alone, whatever it subscribes to: the test event). A space without such
   * webhooks costs a cache hit. `data` may be a function, called only when a webhook wants the
   * event. Answers the rows written; the delivery job is woken unless `wake` is false.
   */
  async emit(
    type: WebhookEventType,
    space: EventSpace,
    data: unknown | (() => Promise<unknown>),
    options: { only?: WebhookEntity; now?: Date; wake?: boolean } = {},
  ): Promise<WebhookDeliveryEntity[]> {
    const { only, now = new Date(), wake = true } = options;
    let targets: string[];
    if (only) targets = [only.id];
    else {
      const subs = await this.subscribers(space);
      targets = subs.filter((s) => s.events.has(type)).map((s) => s.id);
    }
    if (targets.length === 0) return [];
    const resolved = typeof data === 'function' ? await (data as () => Promise<unknown>)() : data;
    if (resolved === null || resolved === undefined) return [];
    const rows = this.rows(type, targets, resolved, now);
    await this.insertRows(rows);
    if (wake) this.onEmitted?.();
    return rows;
  }

  /**
   * Several events at once (a statistics batch's visits): each to the enabled webhooks of its
   * space that subscribe to its type, `short.followed` within each webhook's FOLLOWED_PER_SECOND
   * (the visits beyond it are counted in the statistics, not sent: one link followed thousands of
   * times a second must not write ten thousand outbox rows a second and hold every visitor's
   * event loop). Built and written in chunks that give the event loop back between them. Answers
   * how many rows.
   */
  async emitMany(
    events: ReadonlyArray<{ type: WebhookEventType; space: EventSpace; data: unknown; at: Date }>,
  ): Promise<number> {
    let rows: WebhookDeliveryEntity[] = [];
    let written = 0;
    const flush = async () => {
      await this.insertRows(rows, true);
      written += rows.length;
      rows = [];
    };
    const now = Date.now();
    let seen = 0;
    for (const e of events) {
      const subs = await this.subscribers(e.space);
      let targets = subs.filter((s) => s.events.has(e.type)).map((s) => s.id);
      if (e.type === 'short.followed') targets = targets.filter((id) => this.takeFollowed(id, now));
      if (targets.length) rows.push(...this.rows(e.type, targets, e.data, e.at));
      if (rows.length >= 1_000) await flush();
      else if (++seen % 500 === 0) await yieldToLoop();
    }
    await flush();
    if (written) this.onEmitted?.();
    this.reportSkipped(now);
    return written;
  }

  /**
   * Writes outbox rows with SQL made once per chunk size (INSERT_CHUNKS rows, then smaller ones for
   * the rest, so that the statement texts repeat), the values converted as TypeORM's builder
   * converts them; `turns` gives the event loop a turn after each statement. The builder's insert
   * of a `short.followed` flush's 200 rows made its SQL and parameters in one synchronous piece.
   */
  private async insertRows(rows: readonly WebhookDeliveryEntity[], turns = false): Promise<void> {
    const { connection } = this.deliveries.manager;
    const insert = (this.plainInsert ??= plainInsertOf(connection, this.deliveries.metadata));
    const { driver } = connection;
    let i = 0;
    while (i < rows.length) {
      const n = INSERT_CHUNKS.find((c) => c <= rows.length - i) ?? 1;
      const params = rows
        .slice(i, i + n)
        .flatMap((r) =>
          insert.columns.map((c) => driver.preparePersistentValue(c.getEntityValue(r), c)),
        );
      await this.deliveries.manager.query(insert.sql(n), params);
      i += n;
      if (turns) await yieldToLoop();
    }
  }

  private plainInsert?: PlainInsert;

  /** Per webhook: its `short.followed` allowance (a token bucket), bounded like the cache. */
  private readonly followedBuckets = new BoundedMap<string, { tokens: number; at: number }>(
    CACHE_SPACES,
  );
  /** `short.followed` events not sent since the last log line, and when that was. */
  private followedSkipped = 0;
  private skippedLoggedAt = 0;

  private takeFollowed(webhookId: string, now: number): boolean {
    let b = this.followedBuckets.get(webhookId);
    if (!b) {
      b = { tokens: FOLLOWED_BURST, at: now };
      this.followedBuckets.set(webhookId, b);
    }
    b.tokens = Math.min(FOLLOWED_BURST, b.tokens + ((now - b.at) / 1000) * FOLLOWED_PER_SECOND);
    b.at = now;
    if (b.tokens < 1) {
      this.followedSkipped++;
      return false;
    }
    b.tokens -= 1;
    return true;
  }

  /** One log line a minute at most for the visits not sent. */
  private reportSkipped(now: number): void {
    if (this.followedSkipped === 0 || now - this.skippedLoggedAt < 60_000) return;
    this.logger.warn(
      `short.followed: ${this.followedSkipped} visits not sent (over ${FOLLOWED_PER_SECOND} a second per webhook); the statistics count them`,
    );
    this.followedSkipped = 0;
    this.skippedLoggedAt = now;
  }

  // ---------------------------------------------------------------- held events of a change

  /**
   * Before a change that it reports: its event for every enabled webhook of each short's space
   * that subscribes to `type`, written `held` (never sent, never listed) with the short's identity
   * as what a recovery decides by. Answers each short's event id (shorts no webhook wants are
   * absent; nothing is written for them). After the change is committed, `release` gives the rows
   * their payload and makes them due; when the change fails, `dropHeld` removes them. So the outbox
   * holds the event before the change exists: a process that stops between the change and the
   * release leaves the rows held, and `recoverHeld` (the delivery job, on every instance) decides
   * them from the database a little later (HELD_GRACE_MS): a short that was created or changed
   * sends its event with what it is now, a delete that happened sends its event, and a change that
   * never happened sends nothing. Each decision is one conditional statement on the held rows, so
   * an event goes out once whoever decides it.
   */
  async hold(
    type: WebhookEventType,
    shorts: ReadonlyArray<HeldShort & EventSpace>,
    now = new Date(),
  ): Promise<Map<string, string>> {
    const events = new Map<string, string>();
    const rows: WebhookDeliveryEntity[] = [];
    for (const s of shorts) {
      const subs = await this.subscribers(s);
      const targets = subs.filter((w) => w.events.has(type)).map((w) => w.id);
      if (targets.length === 0) continue;
      const about: HeldShort = { id: s.id, code: s.code, domain: s.domain || null };
      const held = this.rows(type, targets, null, now).map((r) =>
        Object.assign(r, { status: 'held', payload: JSON.stringify({ held: about }) }),
      );
      events.set(s.id, held[0].eventId);
      rows.push(...held);
    }
    await this.insertRows(rows);
    return events;
  }

  /**
   * A held event's change is committed: its rows get the payload (`data`, at the time it was
   * held) and are due now; the delivery job is woken unless `wake` is false (the job's own
   * recovery, which looks for due rows next). False when they were not held any more (decided
   * already).
   */
  async release(eventId: string, data: unknown, wake = true): Promise<boolean> {
    const rows = await this.deliveries.find({
      where: { eventId, status: 'held' },
      select: { id: true, type: true, createdAt: true },
    });
    if (rows.length === 0) return false;
    const payload = JSON.stringify({
      type: rows[0].type,
      timestamp: rows[0].createdAt.toISOString(),
      data,
    });
    const res = await this.deliveries
      .createQueryBuilder()
      .update(WebhookDeliveryEntity)
      .set({ status: 'pending', payload, nextAttemptAt: new Date() })
      .where('event_id = :eventId AND status = :held', { eventId, held: 'held' })
      .execute();
    const released = (res.affected ?? 0) > 0;
    if (released && wake) this.onEmitted?.();
    return released;
  }

  /** A held event's change did not happen: its rows go. */
  async dropHeld(eventIds: readonly string[]): Promise<void> {
    for (let i = 0; i < eventIds.length; i += 200) {
      await this.deliveries.delete({ eventId: In(eventIds.slice(i, i + 200)), status: 'held' });
    }
  }

  private heldDecider: HeldDecider | null = null;

  /** Who decides a held event from the database (the shorts module, through the webhooks module). */
  useHeldDecider(decide: HeldDecider): void {
    this.heldDecider = decide;
  }

  /**
   * Decides the events held longer than HELD_GRACE_MS before `now` (a process stopped between a
   * change and its release): each is released with what its decider answers, or dropped. Answers
   * how many were decided.
   */
  async recoverHeld(now = new Date()): Promise<number> {
    const decide = this.heldDecider;
    if (!decide) return 0;
    const rows = await this.deliveries
      .createQueryBuilder('d')
      .select(['d.eventId', 'd.type', 'd.payload'])
      .where("d.status = 'held'")
      .andWhere('d.created_at < :before', { before: new Date(now.getTime() - HELD_GRACE_MS) })
      .orderBy('d.created_at', 'ASC')
      .limit(200)
      .getMany();
    const events = new Map(rows.map((r) => [r.eventId, r]));
    for (const [eventId, r] of events) {
      const about = (JSON.parse(r.payload) as { held: HeldShort }).held;
      const decided = await decide(r.type as WebhookEventType, about);
      if (decided) await this.release(eventId, decided.data, false);
      else await this.dropHeld([eventId]);
    }
    return events.size;
  }

  /** The outbox rows of one event (one id, sent as `webhook-id`) for these webhooks. */
  private rows(
    type: WebhookEventType,
    webhookIds: readonly string[],
    data: unknown,
    at: Date,
  ): WebhookDeliveryEntity[] {
    const eventId = `msg_${randomUUID().replaceAll('-', '')}`;
    const payload = JSON.stringify({ type, timestamp: at.toISOString(), data });
    const now = new Date();
    return webhookIds.map((webhookId) =>
      // A plain copy into the entity class (repo.create walks the entity's metadata per row).
      Object.assign(new WebhookDeliveryEntity(), {
        id: randomUUID(),
        eventId,
        webhookId,
        type,
        payload,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: now,
        lastStatusCode: null,
        lastError: null,
        durationMs: null,
        createdAt: now,
        deliveredAt: null,
        leaseHolder: null,
        leaseUntil: null,
      }),
    );
  }

  /**
   * Whether any enabled webhook of any space subscribes to `short.followed` (the follow path asks:
   * in memory; refreshed when webhooks change and every minute).
   */
  followedWanted = false;
  /** Whether any webhook exists (else the delivery job's timer does not even look; same refresh). */
  anyWebhooks = false;

  async refreshFlags(): Promise<void> {
    this.anyWebhooks =
      (await this.repo.createQueryBuilder('w').select('w.id').limit(1).getMany()).length > 0;
    const rows = await this.repo
      .createQueryBuilder('w')
      .select('w.id')
      .where('w.enabled = 1')
      .andWhere('w.events LIKE :e', { e: '%short.followed%' })
      .limit(1)
      .getMany();
    this.followedWanted = rows.length > 0;
  }

  /** Whether any webhook of `space` subscribes to `type` (cached; cheap). */
  async wants(type: WebhookEventType, space: EventSpace): Promise<boolean> {
    return (await this.subscribers(space)).some((s) => s.events.has(type));
  }

  /** Cached only: whether a webhook of `space` subscribes to `type`, or undefined when unknown. */
  wantsCached(type: WebhookEventType, space: EventSpace): boolean | undefined {
    const key = spaceKey(space);
    if (!key) return false;
    return this.cache.get(key)?.some((s) => s.events.has(type));
  }

  private async subscribers(space: EventSpace): Promise<readonly Subscriber[]> {
    const key = spaceKey(space);
    if (!key) return [];
    const hit = this.cache.get(key);
    if (hit) return hit;
    const gen = this.generation;
    const rows = space.teamId
      ? await this.repo.find({
          where: { teamId: space.teamId, enabled: true },
          select: { id: true, events: true },
        })
      : await this.repo
          .createQueryBuilder('w')
          .select(['w.id', 'w.events'])
          .where('w.owner_id = :o AND w.team_id IS NULL AND w.enabled = 1', { o: space.ownerId })
          .getMany();
    const subs = rows.map((r) => ({ id: r.id, events: new Set(r.events.split(',')) }));
    if (gen === this.generation) this.cache.set(key, subs);
    return subs;
  }

  /** A webhook of a space changed: every instance drops that space's subscriptions. */
  changed(w: Pick<WebhookEntity, 'ownerId' | 'teamId'>): void {
    const key = spaceKey(w);
    if (key) this.bus.publish(WEBHOOKS_CHANGED_CHANNEL, key);
  }

  // ---------------------------------------------------------------- helpers

  /**
   * The URL rules (the SSRF-safe fetcher's): http or https, a host, no user name, an allowed port; a literal
   * loopback, private or link-local address is refused (loopback allowed with
   * METADATA_ALLOW_LOOPBACK, tests only). Names are checked when a delivery connects.
   */
  private checkUrl(raw: string): void {
    const refuse = (why: string) => {
      throw new WebhookUrlInvalid(why);
    };
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return refuse('must be an absolute http(s) URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') refuse('must be http or https');
    if (!url.hostname) refuse('must name a host');
    if (url.username || url.password) refuse('must not contain a user name or password');
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const lower = host.toLowerCase();
    const cls = isIP(host) ? classifyAddress(host) : null;
    // The fetcher's ports (METADATA_ALLOWED_PORTS); with the test-only loopback switch, a loopback
    // address (or a name, which may resolve to one) on any port.
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    if (!this.allowedPorts.has(port) && !(this.allowLoopback && cls !== 'public')) {
      refuse(`port ${port} is not allowed`);
    }
    if (cls !== null) {
      if (cls === 'refused' || (cls === 'loopback' && !this.allowLoopback)) {
        refuse('must not point to a loopback, private or link-local address');
      }
    } else if (
      !this.allowLoopback &&
      (lower === 'localhost' || lower.endsWith('.localhost') || !lower.includes('.'))
    ) {
      refuse('must be a public host name');
    }
  }

  private events(list: readonly string[]): string {
    const set = new Set(list);
    return WEBHOOK_EVENTS.filter((e) => set.has(e)).join(',');
  }

  private actor(caller: Actor | null): Actor {
    const actor = activeActor(caller);
    if (!actor) throw new UnauthorizedError();
    return actor;
  }

  private async find(id: string): Promise<WebhookEntity> {
    const w = await this.repo.findOne({ where: { id }, relations: { team: true } });
    if (!w) throw webhookNotFound();
    return w;
  }

  toDto(w: WebhookEntity): WebhookDto {
    return {
      id: w.id,
      url: w.url,
      events: w.events.split(',').filter(Boolean) as WebhookEventType[],
      team: w.teamId ? { id: w.teamId, name: w.team?.name ?? '' } : null,
      enabled: w.enabled,
      disabledReason: w.disabledReason,
      createdAt: w.createdAt.toISOString(),
    };
  }
}

export function deliveryDto(d: WebhookDeliveryEntity): WebhookDeliveryDto {
  return {
    id: d.id,
    eventId: d.eventId,
    type: d.type,
    status: d.status,
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    durationMs: d.durationMs,
    createdAt: d.createdAt.toISOString(),
    deliveredAt: d.deliveredAt ? d.deliveredAt.toISOString() : null,
    nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
  };
}
