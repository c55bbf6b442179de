import type { QueryRunner } from 'typeorm';
import { Algorithm, hash } from '@node-rs/argon2';
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { BlacklistService } from '../blacklist/blacklist.service';
import { activeActor, isAdmin, isOwnerOrAdmin, type Actor } from '../common/actor';
import { BoundedMap } from '../common/bounded-map';
import {
  BadRequestError,
  ConflictError,
  DomainError,
  ForbiddenError,
  TooManyRequestsError,
  UnauthorizedError,
  ValidationFailedError,
  shortNotFound,
} from '../common/errors';
import { type Page, type PageRequest, toPage } from '../common/paging';
import type { RequestOrigin } from '../common/request';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { engineOf } from '../database/dialect';
import { isUniqueViolation, onUniqueViolation } from '../database/errors';
import { DomainRegistry } from '../domains/domain-registry';
import { requestHost } from '../domains/domain-host';
import { RateLimitService } from '../limits/rate-limit.service';
import { MetricsService } from '../metrics/metrics.service';
import { ANONYMOUS_LIFETIME_MS } from '../shared/limits';
import type { RedirectRule } from '../shared/redirect-rules';
import {
  type FieldType,
  SHORT_FIELD_NAMES,
  SHORT_FIELDS,
  type ShortFieldSpec,
  type ShortInput,
} from '../shared/short-fields';
import { validateTopLevel } from '../common/validation';
import { generateCode } from './code-generator';
import { type CheckContext, type CheckedFields, checkShortFields } from './field-checks';
import type { CreateShortDto } from './dto/create-short.dto';
import { UpdateShortDto } from './dto/update-short.dto';
import { SHORT_VIEW, type ShortDto, type ShortOwnProperties } from './dto/short.dto';
import { CacheBus } from '../redis/cache-bus';
import {
  followKey,
  SHORT_CHANGED_CHANNEL,
  SHORTS_DELETED_CHANNEL,
  type ShortVisitsSource,
} from './short-events';
import { PasswordLimiter } from './password-limiter';
import { ShortEntity } from './short.entity';
import {
  type FieldColumn,
  type OwnFilter,
  type ShortChanges,
  ShortRepository,
} from './short.repository';
import { MAIN_HOST_FILTER } from '../shared/domains';
import { ServiceNames } from '../domains/target-url';
import { healthView, UNCHECKED } from './short-health';

/** The stored hash of a password field: absent stays absent, null removes it. */
async function passwordHashOf(password: string | null | undefined) {
  if (password === undefined) return undefined;
  return password ? hash(password, { algorithm: Algorithm.Argon2id }) : null;
}

const codeExists = () => new ConflictError('Code already exists', 'code_exists');
/** The domain a short was to be written onto is gone (deleted meanwhile): as an unknown one. */
const domainGone = () =>
  new ValidationFailedError(
    { domain: 'is not a domain of this service' },
    { domain: 'domain_unknown' },
  );

/** The columns of checked fields (SHORT_FIELDS' `column`; a password becomes its hash). */
async function columnsOf(checked: CheckedFields): Promise<ShortChanges> {
  const columns: Record<string, unknown> = {};
  for (const name of SHORT_FIELD_NAMES) {
    const spec: ShortFieldSpec = SHORT_FIELDS[name];
    const value = checked[name];
    if (value === undefined) continue;
    columns[spec.column] =
      name === 'password'
        ? await passwordHashOf(value as string | null)
        : value === null && spec.none !== undefined
          ? spec.none
          : value;
  }
  return columns as ShortChanges;
}

/** Every field's column of a new short: the checked value, else the row's `none` or null. */
function storedFields(columns: ShortChanges): Pick<ShortEntity, FieldColumn> {
  const stored: Record<string, unknown> = {};
  for (const name of SHORT_FIELD_NAMES) {
    const spec: ShortFieldSpec = SHORT_FIELDS[name];
    stored[spec.column] = columns[spec.column as FieldColumn] ?? spec.none ?? null;
  }
  return stored as Pick<ShortEntity, FieldColumn>;
}

/** The columns of the url-typed fields and of the rules (whose urls a blacklist check reads). */
const URL_COLUMNS = columnsOfType('url');
const RULES_COLUMNS = columnsOfType('rules');
function columnsOfType(type: FieldType): FieldColumn[] {
  return SHORT_FIELD_NAMES.filter((name) => SHORT_FIELDS[name].type === type).map(
    (name) => SHORT_FIELDS[name].column,
  );
}

/**
 * A shown field's value in a short's answer (ShortDto), by its type: a date as ISO text, rules as
 * a list ([] for none), the row's `none` as null; `revealed` ones null unless the target is shown.
 */
function shownValue(s: ShortEntity, spec: ShortFieldSpec, revealUrl: boolean): unknown {
  if (spec.shown?.to === 'revealed' && !revealUrl) return null;
  const value = s[spec.column as FieldColumn];
  if (spec.type === 'date-time') return value ? (value as Date).toISOString() : null;
  if (spec.type === 'rules') return value ?? [];
  return spec.none !== undefined && value === spec.none ? null : value;
}

/**
 * Shorts: create, info, the owner's list, delete, and the changes other modules make (admin
 * edits, the danger flag). The one writer of `shorts` besides the follow engine's use counts;
 * every change drops the short from the follow cache of every instance.
 */
@Injectable()
export class ShortService {
  private readonly serviceNames: ServiceNames;
  private readonly baseUrl: string;

  constructor(
    private readonly shorts: ShortRepository,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly blacklist: BlacklistService,
    private readonly bus: CacheBus,
    private readonly limiter: PasswordLimiter,
    private readonly metrics: MetricsService,
    private readonly limits: RateLimitService,
    private readonly domains: DomainRegistry,
  ) {
    // The own and shared domains this instance serves are asked at each check (domains change).
    this.serviceNames = new ServiceNames(config.baseUrl, config.port, (host) => {
      const d = this.domains.get(host);
      return d !== undefined && d.verified && d.enabled;
    });
    this.baseUrl = config.baseUrl;
  }

  /** Drops a short from the follow cache of every instance (after any change to it). */
  private changed(s: Pick<ShortEntity, 'code' | 'domain'>): void {
    this.bus.publish(SHORT_CHANGED_CHANNEL, followKey(s.domain, s.code));
  }

  /** Tells every instance that these shorts are gone (their buffered statistics are dropped). */
  private deleted(ids: readonly string[]): void {
    if (ids.length) this.bus.publish(SHORTS_DELETED_CHANNEL, ids.join(','));
  }

  private visitsSource: ShortVisitsSource | null = null;

  /** Where the own list's visits come from (the statistics module registers itself). */
  useVisits(source: ShortVisitsSource): void {
    this.visitsSource = source;
  }

  private visitsOf(ids: readonly string[]): Promise<Map<string, number>> {
    return this.visitsSource?.visitsOf(ids) ?? Promise.resolve(new Map());
  }

  /** The own list's sort by visits (`0` without statistics). */
  visitsOrder(alias: string): string {
    return this.visitsSource?.orderExpression(alias) ?? '0';
  }

  /** How many shorts exist and how often they were used (the start page's live figures). */
  totals(): Promise<{ shorts: number; uses: number }> {
    return this.shorts.totals();
  }

  /** Which of `ids` are shorts that exist. */
  existingIds(ids: readonly string[]): Promise<Set<string>> {
    return this.shorts.existingIds(ids);
  }

  /**
   * Adds buffered use counts inside a batch transaction of another module (the statistics carry
   * the follow path's use counts in their batch: see FollowService.useCounter).
   */
  addUses(runner: QueryRunner, counts: ReadonlyMap<string, number>): Promise<void> {
    return this.shorts.addUses(runner, counts);
  }

  // ---------------------------------------------------------------- the rules of a short's fields

  /** This service's names with a request's host, per host (a few; bounded: hosts are the caller's). */
  private readonly namesByHost = new BoundedMap<string, ServiceNames>(64);

  private namesFor(origin: RequestOrigin | undefined): ServiceNames {
    const protocol = origin?.protocol ?? 'http';
    const key = `${protocol} ${origin?.host ?? ''}`;
    let names = this.namesByHost.get(key);
    if (!names) {
      names = this.serviceNames.withRequestHost(origin?.host, protocol);
      this.namesByHost.set(key, names);
    }
    return names;
  }

  /**
   * The create rules for every field present in `input` (create, edit and import use them; see
   * field-checks.ts): 400 with fieldErrors, or the contract's sentence, or the fields to store
   * (the password still to be hashed: `passwordHashOf`). Absent fields stay absent.
   */
  private checkFields(
    input: ShortInput,
    mode: CheckContext['mode'],
    actor: Actor | null,
    origin: RequestOrigin | undefined,
  ): CheckedFields {
    const outcome = checkShortFields(input, {
      mode,
      loggedIn: actor !== null,
      names: this.namesFor(origin),
      blacklist: this.blacklist,
      now: Date.now(),
      domainAccess: (host) => {
        const d = this.domains.get(host);
        if (!d) return 'unknown';
        return isAdmin(actor) || d.ownerId === null || d.ownerId === actor?.id ? 'ok' : 'forbidden';
      },
    });
    if ('fieldErrors' in outcome) {
      throw new ValidationFailedError(outcome.fieldErrors, outcome.fieldErrorKeys);
    }
    if ('problem' in outcome) {
      throw outcome.status === 403
        ? new ForbiddenError(outcome.problem, outcome.key)
        : new BadRequestError(outcome.problem, outcome.key);
    }
    return outcome.checked;
  }

  // ---------------------------------------------------------------- create

  /**
   * Creates a short by the create rules. Every create counts against the caller's rate limit
   * (anonymous: per client address; users: per user; admins are exempt) after the fields passed
   * their checks and before anything is hashed or written; `counted` says that the caller took
   * the allowance already (an import takes all its rows at once).
   */
  async create(
    dto: CreateShortDto,
    caller: Actor | null,
    origin?: RequestOrigin,
    options: { counted?: boolean } = {},
  ): Promise<{ code: string; id: string; shortUrl: string }> {
    const actor = activeActor(caller);
    const checked = this.checkCreate(dto, actor, origin);
    if (!options.counted) await this.takeCreate(actor, origin);
    const entity = this.newShort(await columnsOf(checked), actor);
    await this.insertNew(entity, typeof checked.code === 'string');
    this.created([entity]);
    return {
      code: entity.code,
      id: entity.id,
      shortUrl: this.shortUrl(entity.code, entity.domain),
    };
  }

  /**
   * Creates the shorts of an import chunk (a logged-in caller who took the allowance for all of them
   * already; no passwords): each by the create rules, as `create` with `counted` would, answered
   * with its code or the DomainError a create would throw. The shorts that pass their checks and
   * whose custom codes are free are written with one multi-row INSERT (one statement, so one
   * transaction); when that meets a taken code after all (a concurrent create), they are written
   * one by one instead. So each input is either created or answered with its error, never both.
   */
  async createMany(
    inputs: ReadonlyArray<Omit<CreateShortDto, 'password'>>,
    actor: Actor,
    origin?: RequestOrigin,
  ): Promise<Array<{ code: string } | { error: DomainError }>> {
    const results: Array<{ code: string } | { error: DomainError }> = [];
    const pending: Array<{ index: number; entity: ShortEntity; custom: boolean }> = [];
    const customCodes = new Set<string>();
    for (const [index, dto] of inputs.entries()) {
      try {
        const checked = this.checkCreate({ ...dto, password: undefined }, actor, origin);
        if (typeof checked.code === 'string') {
          const key = followKey(checked.domain ?? '', checked.code);
          if (customCodes.has(key)) throw codeExists(); // an earlier row takes it
          customCodes.add(key);
        }
        const entity = this.newShort(await columnsOf(checked), actor);
        pending.push({ index, entity, custom: typeof checked.code === 'string' });
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        results[index] = { error: err };
      }
    }
    const taken = await this.takenCodes(pending.filter((p) => p.custom).map((p) => p.entity));
    const fresh = pending.filter((p) => {
      if (p.custom && taken.has(followKey(p.entity.domain, p.entity.code))) {
        results[p.index] = { error: codeExists() };
      }
      return results[p.index] === undefined;
    });
    // The main host's rows in one INSERT as before; each domain's rows apart (insertOnDomain).
    const groups = new Map<string, typeof fresh>();
    for (const p of fresh) {
      const group = groups.get(p.entity.domain);
      if (group) group.push(p);
      else groups.set(p.entity.domain, [p]);
    }
    for (const [domain, group] of groups) {
      await this.insertGroup(domain, group, results);
    }
    this.created(fresh.filter((p) => 'code' in results[p.index]).map((p) => p.entity));
    return results;
  }

  /**
   * One multi-row write of an import's rows on one domain (or the main host); when that meets a
   * taken code (a concurrent create) or cannot be done at once (SQLite on a domain), each alone.
   */
  private async insertGroup(
    domain: string,
    group: ReadonlyArray<{ index: number; entity: ShortEntity; custom: boolean }>,
    results: Array<{ code: string } | { error: DomainError }>,
  ): Promise<void> {
    // SQLite writes a short onto a domain in one statement of its own (insertOnDomain).
    if (domain === '' || engineOf(this.shorts.dataSource) !== 'sqlite') {
      try {
        if (domain) await this.insertOnDomain(group.map((p) => p.entity));
        else await this.shorts.insertMany(group.map((p) => p.entity));
        for (const p of group) results[p.index] = { code: p.entity.code };
        return;
      } catch (err) {
        if (err instanceof DomainError) {
          for (const p of group) results[p.index] = { error: err };
          return;
        }
        if (!isUniqueViolation(err)) throw err;
      }
    }
    for (const p of group) {
      try {
        await this.insertNew(p.entity, p.custom);
        results[p.index] = { code: p.entity.code };
      } catch (e) {
        if (!(e instanceof DomainError)) throw e;
        results[p.index] = { error: e };
      }
    }
  }

  /** Which of these shorts' codes are taken on their domains (as followKeys). */
  private async takenCodes(
    shorts: ReadonlyArray<Pick<ShortEntity, 'code' | 'domain'>>,
  ): Promise<Set<string>> {
    const byDomain = new Map<string, string[]>();
    for (const s of shorts) byDomain.set(s.domain, [...(byDomain.get(s.domain) ?? []), s.code]);
    const taken = new Set<string>();
    for (const [domain, codes] of byDomain) {
      for (const code of await this.shorts.existingCodes(domain, codes)) {
        taken.add(followKey(domain, code));
      }
    }
    return taken;
  }

  /** The create rules for a create's fields (anonymous callers: only url and password). */
  private checkCreate(
    dto: ShortInput,
    actor: Actor | null,
    origin: RequestOrigin | undefined,
  ): CheckedFields {
    return this.checkFields(dto, 'create', actor, origin);
  }

  /** A new short of checked columns (a generated code unless a custom one was checked). */
  private newShort(columns: ShortChanges, actor: Actor | null): ShortEntity {
    const now = Date.now();
    return this.shorts.create({
      ...storedFields(columns),
      id: randomUUID(),
      code: columns.code ?? generateCode(),
      uses: 0,
      createdAt: new Date(now),
      expireAt: actor ? (columns.expireAt ?? null) : new Date(now + ANONYMOUS_LIFETIME_MS),
      ownerId: actor?.id ?? null,
      dangerous: false,
      dangerReason: null,
      ...UNCHECKED,
    });
  }

  /** Writes a new short: a taken custom code is 409, a taken generated code is retried silently. */
  private async insertNew(entity: ShortEntity, custom: boolean): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        if (entity.domain) await this.insertOnDomain([entity]);
        else await this.shorts.insert(entity);
        return;
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        if (custom) throw codeExists();
        if (attempt >= 5) throw err;
        entity.code = generateCode();
      }
    }
  }

  /**
   * Writes shorts onto their own domain (all on one) only while it is there (ShortRepository.
   * insertOnDomain: exclusive with the domain's delete); a domain gone meanwhile is `domain_unknown`.
   */
  private async insertOnDomain(shorts: readonly ShortEntity[]): Promise<void> {
    const d = this.domains.get(shorts[0].domain);
    if (!d || !(await this.shorts.insertOnDomain(shorts, d))) throw domainGone();
  }

  /** New codes leave every instance's follow cache (a cached "missing") and count as creates. */
  private created(shorts: ReadonlyArray<Pick<ShortEntity, 'code' | 'domain'>>): void {
    for (const s of shorts) this.changed(s);
    if (shorts.length) this.metrics.creates.inc({ kind: 'short' }, shorts.length);
  }

  /**
   * Takes `n` creates from the caller's allowance (429 when it would pass a limit): anonymous
   * callers by client address, users by id; admins are exempt.
   */
  async takeCreate(actor: Actor | null, origin: RequestOrigin | undefined, n = 1): Promise<void> {
    if (!actor) await this.limits.take('anonCreate', origin?.client ?? 'unknown', n);
    else if (!isAdmin(actor)) await this.limits.take('userCreate', actor.id, n);
  }

  // ---------------------------------------------------------------- edit

  /**
   * Changes a short (owner or admin; anonymous shorts admins only) by the create rules. A new code
   * frees the old one; `null` clears expiry, limit and password. Both codes leave the follow cache
   * of every instance before the answer. A flagged short stays flagged.
   */
  async update(
    id: string,
    dto: UpdateShortDto,
    caller: Actor | null,
    origin?: RequestOrigin,
  ): Promise<ShortDto> {
    const s = await this.findOwned(id, caller);
    const checked = this.checkFields(dto, 'edit', activeActor(caller), origin);
    const changes = await columnsOf(checked);
    // A new target has not been checked: its health starts over (the next sweep checks it).
    if (changes.url !== undefined && changes.url !== s.url) Object.assign(changes, UNCHECKED);
    if (changes.domain && changes.domain !== s.domain) {
      // Onto an own domain: only while it is there (exclusive with its delete).
      const d = this.domains.get(changes.domain);
      const moved =
        d && (await onUniqueViolation(this.shorts.updateOnDomain(s.id, changes, d), codeExists));
      if (!moved) throw domainGone();
    } else await onUniqueViolation(this.shorts.update(s.id, changes), codeExists);
    this.changed(s);
    this.changed({ code: changes.code ?? s.code, domain: changes.domain ?? s.domain });
    const updated = await this.shorts.findByIdWithOwner(s.id);
    if (!updated) throw shortNotFound();
    return this.toDto(updated, true, undefined, true);
  }

  /**
   * Loads the short `id` through `load` when the caller may manage it: its owner or an admin
   * (anonymous shorts only admins). Anonymous callers 401, others 403 `not_owner`, unknown 404.
   */
  private async managed<S extends { ownerId: string | null }>(
    caller: Actor | null,
    load: (id: string) => Promise<S | null>,
    id: string,
    action: string,
  ): Promise<S> {
    const actor = activeActor(caller);
    if (!actor) throw new UnauthorizedError();
    const s = await load(id);
    if (!s) throw shortNotFound();
    if (!isOwnerOrAdmin(actor, s.ownerId)) {
      throw new ForbiddenError(`Only the owner or an admin may ${action}`, 'not_owner');
    }
    return s;
  }

  /**
   * The short `id` if the caller may manage it (change it, see its reports): its owner or an admin;
   * anonymous shorts only admins. Anonymous callers 401, others 403, unknown 404.
   */
  async findOwned(id: string, caller: Actor | null): Promise<ShortEntity> {
    return this.managed(caller, (a) => this.shorts.findByIdWithOwner(a), id, 'do this');
  }

  /** As findOwned, reading only the short's id and owner (for callers that need no more). */
  async findOwnedId(id: string, caller: Actor | null): Promise<string> {
    return (await this.managed(caller, (a) => this.shorts.findOwnerOf(a), id, 'do this')).id;
  }

  // ---------------------------------------------------------------- info

  /** The short as JSON; url withheld as `mayReveal` decides. */
  async info(
    code: string,
    caller: Actor | null,
    password: string | undefined,
    client: string,
    domain = '',
  ): Promise<ShortDto> {
    const s = await this.findVisible(code, domain);
    const mayReveal = await this.mayReveal(s, caller, password, client);
    if (!isOwnerOrAdmin(activeActor(caller), s.ownerId)) return this.toDto(s, mayReveal);
    // Its owner (and admins) see its uses and visits, as in the own list.
    const visits = await this.visitsOf([s.id]);
    return this.toDto(s, mayReveal, { visits: visits.get(s.id) ?? 0 });
  }

  /**
   * The domain whose codes a request resolves: the verified own domain it was sent to (`Host`),
   * else the verified domain the request names in `?domain=`, else '' (this service's host; an
   * unknown host never reaches a domain's shorts).
   */
  requestDomain(hostHeader: string | undefined, asked?: unknown): string {
    const own = this.domains.ofRequest(hostHeader);
    if (own) return own.host;
    // On this service's host a page may name a domain (?domain=): its owner's info, statistics and
    // QR code, opened from the own list. Only a verified domain's codes; anything else is the main host.
    if (typeof asked !== 'string' || asked === '') return '';
    const host = requestHost(asked);
    return host && this.domains.get(host)?.verified ? host : '';
  }

  /** Finds a short that visitors may see (not expired, not exhausted) or throws 404. */
  async findVisible(code: string, domain = ''): Promise<ShortEntity> {
    const s = await this.shorts.findByCodeWithOwner(code, domain);
    if (!s || !this.isLive(s, Date.now())) throw shortNotFound();
    return s;
  }

  /**
   * Whether url and metadata of `s` may be shown to the caller: always to its owner and admins;
   * never to others when the short has `maxUses` (its target is reached only through a claimed
   * use, so asking for it cannot skip the limit or the bots' preview); for a password-protected
   * short only with the right password (wrong → 403, locked → 429); else always.
   */
  async mayReveal(
    s: ShortEntity,
    caller: Actor | null,
    password: string | undefined,
    client: string,
  ): Promise<boolean> {
    if (isOwnerOrAdmin(caller, s.ownerId)) return true;
    if (s.maxUses !== null) return false;
    if (!s.passwordHash) return true;
    if (password === undefined || password === '') return false;
    const outcome = await this.limiter.check(s.id, client, s.passwordHash, password);
    if (outcome === 'locked')
      throw new TooManyRequestsError(
        'Too many wrong passwords, try again later',
        'password_locked',
      );
    if (outcome === 'wrong') throw new ForbiddenError('Wrong password', 'password_wrong');
    return true;
  }

  /**
   * A short as the API shows it: the info call, the own list and the export all map through here.
   * `url` as `revealUrl` says (mayReveal); `counts` (uses and visits) for its owner's views;
   * `ownerView` (its owner or an admin asks; with counts by default) adds the expiry fallback, the
   * rules and the link health.
   */
  toDto(
    s: ShortEntity,
    revealUrl: boolean,
    counts?: { visits: number },
    ownerView = counts !== undefined,
  ): ShortDto {
    const own: ShortOwnProperties = {
      id: s.id,
      shortUrl: this.shortUrl(s.code, s.domain),
      hasPassword: s.passwordHash !== null,
      createdAt: s.createdAt.toISOString(),
      owner: s.owner ? { id: s.owner.id, username: s.owner.username } : null,
      dangers: this.dangersOf(s),
      ...(counts ? { uses: s.uses, visits: counts.visits } : {}),
      ...(ownerView ? { health: healthView(s) } : {}),
    };
    const dto: Record<string, unknown> = {};
    for (const name of SHORT_VIEW) {
      const spec: ShortFieldSpec | undefined = (SHORT_FIELDS as Record<string, ShortFieldSpec>)[
        name
      ];
      if (spec?.shown === undefined) {
        const value = own[name as keyof ShortOwnProperties];
        if (value !== undefined) dto[name] = value;
      } else if (ownerView || spec.shown.to !== 'owner') {
        dto[name] = shownValue(s, spec, revealUrl);
      }
    }
    return dto as unknown as ShortDto;
  }

  /**
   * Whether a short is dangerous: flagged, or any of its targets (every url-typed field, a rule's
   * url) is on the blacklist now.
   */
  private dangersOf(s: ShortEntity): boolean {
    if (s.dangerous) return true;
    const listed = (url: string | null) => !!url && this.blacklist.isBlacklisted(url);
    for (const column of URL_COLUMNS) if (listed(s[column] as string | null)) return true;
    for (const column of RULES_COLUMNS) {
      const rules = s[column] as RedirectRule[] | null;
      if (rules?.some((r) => listed(r.url))) return true;
    }
    return false;
  }

  /**
   * The link of a short to share: `{BASE_URL}/s/{code}` on this service's host, `{scheme}://{domain}/
   * {code}` on an own domain (no `/s/`: short is the point; the scheme is BASE_URL's).
   */
  shortUrl(code: string, domain = ''): string {
    const c = encodeURIComponent(code);
    return domain ? `${new URL(this.baseUrl).protocol}//${domain}/${c}` : `${this.baseUrl}/s/${c}`;
  }

  private isLive(s: ShortEntity, now: number): boolean {
    if (s.expireAt && s.expireAt.getTime() <= now) return false;
    if (s.maxUses !== null && s.uses >= s.maxUses) return false;
    return true;
  }

  // ---------------------------------------------------------------- own list

  /** The caller's own shorts, expired and exhausted ones included; owners always see the url. */
  async listOwn(
    ownerId: string,
    req: PageRequest,
    filter: OwnFilter = {},
  ): Promise<Page<ShortDto>> {
    const domain =
      filter.domain === undefined
        ? undefined
        : filter.domain === MAIN_HOST_FILTER
          ? ''
          : (requestHost(filter.domain) ?? filter.domain);
    const [rows, total] = await this.shorts.listOwn(ownerId, req, { ...filter, domain });
    const visits = await this.visitsOf(rows.map((s) => s.id));
    return toPage(
      rows.map((s) => this.toDto(s, true, { visits: visits.get(s.id) ?? 0 })),
      total,
      req,
    );
  }

  /**
   * The owner's shorts after `afterId` in id order, `limit` at a time, with their visits (keyset
   * paging: an export reads 100 or 100,000 shorts in the same memory).
   */
  async ownedAfter(
    ownerId: string,
    afterId: string | null,
    limit: number,
  ): Promise<{ page: ShortEntity[]; visits: Map<string, number> }> {
    const page = await this.shorts.pageOwnedAfter(ownerId, afterId, limit);
    const visits = await this.visitsOf(page.map((s) => s.id));
    return { page, visits };
  }

  // ---------------------------------------------------------------- delete

  /** Deletes a short: its owner or an admin; anonymous shorts only admins. */
  async delete(id: string, caller: Actor | null): Promise<void> {
    const s = await this.managed(
      caller,
      (a) => this.shorts.findIdentity(a),
      id,
      'delete this short',
    );
    await this.shorts.delete(s.id);
    this.changed(s);
    this.deleted([s.id]);
  }

  /** Deletes every short of a user (before the user is removed). */
  async deleteAllOwnedBy(ownerId: string): Promise<void> {
    const owned = await this.shorts.identitiesOwnedBy(ownerId);
    await this.shorts.deleteOwnedBy(ownerId);
    for (const s of owned) this.changed(s);
    this.deleted(owned.map((s) => s.id));
  }

  // ---------------------------------------------------------------- changes by other modules

  /**
   * An admin's edit of a short's fields in the admin area (any short): the owner's edit exactly
   * (the boundary validation of PATCH, then the create rules), so that it is refused with the
   * field errors and keys an owner would get.
   */
  async adminEdit(
    id: string,
    fields: Record<string, unknown>,
    admin: Actor,
    origin?: RequestOrigin,
  ): Promise<void> {
    await this.update(id, await validateTopLevel(UpdateShortDto, fields), admin, origin);
  }

  /** Sets or clears the danger flag (the report rules decide when; see ReportService). */
  async setDanger(id: string, dangerous: boolean, reason: string | null): Promise<void> {
    await this.change(id, { dangerous, dangerReason: dangerous ? (reason ?? 'OTHER') : null });
  }

  /** Changes the reason of a short that is flagged; an unflagged short keeps no reason. */
  async setDangerReason(id: string, reason: string | null): Promise<void> {
    const s = await this.shorts.findIdentity(id);
    if (!s?.dangerous) return;
    await this.shorts.update(id, { dangerReason: reason });
    this.changed(s);
  }

  /** Flags a short dangerous unless it already is; true when this call flagged it. */
  async flagDangerousOnce(id: string, reason: string): Promise<boolean> {
    const s = await this.shorts.findIdentity(id);
    if (!s || !(await this.shorts.flagDangerousOnce(id, reason))) return false;
    this.changed(s);
    return true;
  }

  private async change(id: string, changes: ShortChanges): Promise<void> {
    const s = await this.shorts.findIdentity(id);
    if (!s) return;
    await this.shorts.update(id, changes);
    this.changed(s);
  }
}
