import { Algorithm, hash } from '@node-rs/argon2';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { AccessPolicy } from '../access/access-policy';
import { randomUUID } from 'node:crypto';
import { BlacklistService } from '../blacklist/blacklist.service';
import { activeActor, isAdmin, type Actor } from '../common/actor';
import { BoundedMap } from '../common/bounded-map';
import {
  BadRequestError,
  ConflictError,
  DomainError,
  ForbiddenError,
  ValidationFailedError,
} from '../common/errors';
import type { RequestOrigin } from '../common/request';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { engineOf } from '../database/dialect';
import { isUniqueViolation } from '../database/errors';
import { DomainRegistry } from '../domains/domain-registry';
import { HeldChanges, ShortChangeHub } from './short-change-hub';
import { ServiceNames } from '../domains/target-url';
import { RateLimitService } from '../limits/rate-limit.service';
import { MetricsService } from '../metrics/metrics.service';
import { CacheBus } from '../redis/cache-bus';
import { ANONYMOUS_LIFETIME_MS } from '../shared/limits';
import {
  SHORT_FIELD_NAMES,
  SHORT_FIELDS,
  type ShortFieldSpec,
  type ShortInput,
} from '../shared/short-fields';
import { generateCode } from './code-generator';
import type { CreateShortDto } from './dto/create-short.dto';
import { type CheckContext, type CheckedFields, checkShortFields } from './field-checks';
import { followKey, SHORT_CHANGED_CHANNEL } from './short-events';
import { UNCHECKED } from './short-health';
import { ShortInsertRepository } from './short-insert.repository';
import { ShortViewService } from './short-view.service';
import type { ShortEntity } from './short.entity';
import type { FieldColumn, ShortChanges } from './short.repository';

/** The stored hash of a password field: absent stays absent, null removes it. */
async function passwordHashOf(password: string | null | undefined) {
  if (password === undefined) return undefined;
  return password ? hash(password, { algorithm: Algorithm.Argon2id }) : null;
}

export const codeExists = () => new ConflictError('Code already exists', 'code_exists');
/** The domain a short was to be written onto is gone (deleted meanwhile): as an unknown one. */
export const domainGone = () =>
  new ValidationFailedError(
    { domain: 'is not a domain of this service' },
    { domain: 'domain_unknown' },
  );

/** An import's row waiting for its write: its index in the chunk, its short, a custom code. */
interface PendingShort {
  index: number;
  entity: ShortEntity;
  custom: boolean;
}

/** The columns of checked fields (SHORT_FIELDS' `column`; a password becomes its hash). */
const NO_TEAMS: ReadonlySet<string> = new Set();

export async function columnsOf(checked: CheckedFields): Promise<ShortChanges> {
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

/**
 * Creating shorts: the create rules of every field (create, edit and import use them), a single
 * create, an import's chunk in one write, and the creates' rate limits.
 */
@Injectable()
export class ShortCreateService {
  private readonly serviceNames: ServiceNames;

  constructor(
    private readonly inserts: ShortInsertRepository,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly blacklist: BlacklistService,
    private readonly bus: CacheBus,
    private readonly metrics: MetricsService,
    private readonly limits: RateLimitService,
    private readonly domains: DomainRegistry,
    private readonly view: ShortViewService,
    private readonly policy: AccessPolicy,
    @Optional() private readonly changes?: ShortChangeHub,
  ) {
    // The own and shared domains this instance serves are asked at each check (domains change).
    this.serviceNames = new ServiceNames(config.baseUrl, config.port, (host) => {
      const d = this.domains.get(host);
      return d !== undefined && d.verified && d.enabled;
    });
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
  checkFields(
    input: ShortInput,
    mode: CheckContext['mode'],
    actor: Actor | null,
    origin: RequestOrigin | undefined,
    teams: ReadonlySet<string>,
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
        return this.policy.mayUseDomain(actor, d, teams) ? 'ok' : 'forbidden';
      },
      teamAccess: (id) => teams.has(id),
    });
    if ('fieldErrors' in outcome) {
      const { fieldErrors, fieldErrorKeys, fieldErrorPaths } = outcome;
      throw new ValidationFailedError(fieldErrors, fieldErrorKeys, fieldErrorPaths);
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
    const checked = this.checkCreate(dto, actor, origin, await this.teamsFor(actor, [dto]));
    if (!options.counted) await this.takeCreate(actor, origin);
    const entity = this.newShort(await columnsOf(checked), actor);
    // The webhooks' event is in the outbox (held) before the short exists: none is lost.
    const held = (await this.changes?.hold('short.created', [entity])) ?? HeldChanges.none;
    try {
      await this.insertNew(entity, typeof checked.code === 'string');
    } catch (err) {
      await held.drop();
      throw err;
    }
    this.created([entity]);
    await held.release([entity]);
    return {
      code: entity.code,
      id: entity.id,
      shortUrl: this.view.shortUrl(entity.code, entity.domain),
    };
  }

  /**
   * Creates the shorts of an import chunk (a logged-in caller who took the allowance for all of them
   * already; no passwords): each by the create rules, as `create` with `counted` would, answered
   * with its code or the DomainError a create would throw. The shorts that pass their checks and
   * whose custom codes are free are written with one multi-row INSERT (one statement, so one
   * transaction; those with tags together with their tag rows in one transaction of their own);
   * when that meets a taken code after all (a concurrent create), they are written one by one
   * instead. So each input is either created or answered with its error, never both.
   */
  async createMany(
    inputs: ReadonlyArray<Omit<CreateShortDto, 'password'>>,
    actor: Actor,
    origin?: RequestOrigin,
  ): Promise<Array<{ code: string } | { error: DomainError }>> {
    const results: Array<{ code: string } | { error: DomainError }> = [];
    const pending: PendingShort[] = [];
    const customCodes = new Set<string>();
    const teams = await this.teamsFor(actor, inputs);
    for (const [index, dto] of inputs.entries()) {
      try {
        const checked = this.checkCreate({ ...dto, password: undefined }, actor, origin, teams);
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
    const entities = fresh.map((p) => p.entity);
    const held = (await this.changes?.hold('short.created', entities)) ?? HeldChanges.none;
    try {
      for (const [domain, group] of groups) {
        await this.insertGroup(domain, group, results);
      }
    } catch (err) {
      await held.drop();
      throw err;
    }
    const created = fresh.filter((p) => 'code' in results[p.index]).map((p) => p.entity);
    this.created(created);
    await held.drop(fresh.filter((p) => !('code' in results[p.index])).map((p) => p.entity));
    await held.release(created);
    return results;
  }

  /**
   * The writes of an import's rows on one domain (or the main host): those without tags as before
   * (insertPlainGroup), those with tags with their tag rows (insertTaggedGroup).
   */
  private async insertGroup(
    domain: string,
    group: ReadonlyArray<PendingShort>,
    results: Array<{ code: string } | { error: DomainError }>,
  ): Promise<void> {
    const tagged = group.filter((p) => p.entity.tags !== null);
    if (tagged.length === 0) return this.insertPlainGroup(domain, group, results);
    const plain = group.filter((p) => p.entity.tags === null);
    if (plain.length) await this.insertPlainGroup(domain, plain, results);
    await this.insertTaggedGroup(tagged, results);
  }

  /**
   * An import's rows with tags on one domain (or the main host): all of them and their tag rows
   * in one transaction; when that meets a taken code (a concurrent create), each alone.
   */
  private insertTaggedGroup(
    group: ReadonlyArray<PendingShort>,
    results: Array<{ code: string } | { error: DomainError }>,
  ): Promise<void> {
    return this.writeGroup(group, results, () => this.insertTagged(group.map((p) => p.entity)));
  }

  /**
   * One multi-row write of an import's rows on one domain (or the main host); when that meets a
   * taken code (a concurrent create) or cannot be done at once (SQLite on a domain), each alone.
   */
  private insertPlainGroup(
    domain: string,
    group: ReadonlyArray<PendingShort>,
    results: Array<{ code: string } | { error: DomainError }>,
  ): Promise<void> {
    // SQLite writes a short onto a domain in one statement of its own (insertOnDomain).
    if (domain !== '' && engineOf(this.inserts.dataSource) === 'sqlite') {
      return this.insertEach(group, results);
    }
    const entities = group.map((p) => p.entity);
    return this.writeGroup(group, results, () =>
      domain ? this.insertOnDomain(entities) : this.inserts.insertMany(entities),
    );
  }

  /**
   * An import's group written at once by `write`: every row answered with its code; a DomainError
   * answers every row with it; a taken code (a concurrent create) writes each row alone instead.
   */
  private async writeGroup(
    group: ReadonlyArray<PendingShort>,
    results: Array<{ code: string } | { error: DomainError }>,
    write: () => Promise<unknown>,
  ): Promise<void> {
    try {
      await write();
      for (const p of group) results[p.index] = { code: p.entity.code };
      return;
    } catch (err) {
      if (err instanceof DomainError) {
        for (const p of group) results[p.index] = { error: err };
        return;
      }
      if (!isUniqueViolation(err)) throw err;
    }
    await this.insertEach(group, results);
  }

  /** Each of an import's rows alone (insertNew), answered with its code or its error. */
  private async insertEach(
    group: ReadonlyArray<PendingShort>,
    results: Array<{ code: string } | { error: DomainError }>,
  ): Promise<void> {
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
      for (const code of await this.inserts.existingCodes(domain, codes)) {
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
    teams: ReadonlySet<string>,
  ): CheckedFields {
    return this.checkFields(dto, 'create', actor, origin, teams);
  }

  /**
   * The teams the caller may write to, read only when these inputs need them: one names a team, a
   * team's domain, or the caller acts through a team's key (its shorts go to that team).
   */
  async teamsFor(
    actor: Actor | null,
    inputs: ReadonlyArray<ShortInput>,
  ): Promise<ReadonlySet<string>> {
    if (!actor) return NO_TEAMS;
    const needed =
      actor.key?.teamId ||
      inputs.some(
        (i) =>
          typeof i.team === 'string' ||
          (typeof i.domain === 'string' && this.domains.get(i.domain.trim().toLowerCase())?.teamId),
      );
    if (!needed) return NO_TEAMS;
    const teams = await this.policy.writableTeams(actor);
    if (!isAdmin(actor)) return teams;
    // Admins may write to any existing team (AccessPolicy.writableTeam).
    const named = new Set(teams);
    const tried = new Set<string>();
    for (const i of inputs) {
      if (typeof i.team === 'string' && !named.has(i.team) && !tried.has(i.team)) {
        tried.add(i.team);
        const ok = await this.policy.writableTeam(actor, i.team).then(
          () => true,
          () => false,
        );
        if (ok) named.add(i.team);
      }
    }
    return named;
  }

  /** A new short of checked columns (a generated code unless a custom one was checked). */
  private newShort(columns: ShortChanges, actor: Actor | null): ShortEntity {
    const now = Date.now();
    return this.inserts.create({
      ...storedFields(columns),
      id: randomUUID(),
      code: columns.code ?? generateCode(),
      uses: 0,
      createdAt: new Date(now),
      expireAt: actor ? (columns.expireAt ?? null) : new Date(now + ANONYMOUS_LIFETIME_MS),
      ownerId: actor?.id ?? null,
      // No team named: a team key's shorts go to its team, anybody else's to his own space.
      teamId: columns.teamId ?? actor?.key?.teamId ?? null,
      dangerous: false,
      dangerReason: null,
      ...UNCHECKED,
    });
  }

  /**
   * Writes a new short: a taken custom code is 409, a taken generated code is retried silently. A
   * short with tags is written with its tag rows in one transaction (insertTagged); one without
   * takes the queued INSERT (or insertOnDomain) as before.
   */
  private async insertNew(entity: ShortEntity, custom: boolean): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        if (entity.tags !== null) await this.insertTagged([entity]);
        else if (entity.domain) await this.insertOnDomain([entity]);
        else await this.inserts.insert(entity);
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
   * Writes shorts onto their own domain (all on one) only while it is there (exclusive with the
   * domain's delete: ShortInsertRepository.insertOnDomain); a domain gone meanwhile is
   * `domain_unknown`.
   */
  private async insertOnDomain(shorts: readonly ShortEntity[]): Promise<void> {
    const d = this.domains.get(shorts[0].domain);
    if (!d || !(await this.inserts.insertOnDomain(shorts, d))) throw domainGone();
  }

  /**
   * Writes new shorts with tags (all on one domain, or all on the main host) with their tag rows,
   * in one transaction: onto an own domain only while it is there (`domain_unknown` when it went).
   */
  private async insertTagged(shorts: readonly ShortEntity[]): Promise<void> {
    const host = shorts[0].domain;
    if (!host) {
      await this.inserts.insertTagged(shorts);
      return;
    }
    const d = this.domains.get(host);
    if (!d || !(await this.inserts.insertTagged(shorts, d))) throw domainGone();
  }

  /** New codes leave every instance's follow cache (a cached "missing") and count as creates. */
  private created(shorts: ReadonlyArray<Pick<ShortEntity, 'code' | 'domain'>>): void {
    for (const s of shorts) this.bus.publish(SHORT_CHANGED_CHANNEL, followKey(s.domain, s.code));
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
}
