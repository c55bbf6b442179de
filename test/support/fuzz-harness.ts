import fc from 'fast-check';
import { createHash, randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { hashApiKey } from '../../src/apikey/apikey.crypto';
import { FollowService } from '../../src/follow/follow.service';
import { engineOf } from '../../src/database/dialect';
import { LogService } from '../../src/logging/log.service';
import { isSpecificErrorKey } from '../../src/shared/error-keys';
import { WebhookDeliveryJob } from '../../src/webhooks/webhook-delivery.job';
import { StatisticsRecorder } from '../../src/statistics/recorder';
import type { TestApp } from './app';
import type { FuzzOperation } from './fuzz-spec';
import {
  bodyFor,
  cleanBodyFor,
  contentType,
  extraHeaders,
  extraQuery,
  Known,
  pathEncoding,
  pathValue,
  queryValue,
  type FuzzBody,
  type ParamValue,
  type Slot,
} from './fuzz-values';
import { loginAs, type LoggedIn } from './login';
import { expectMatchesSpec, openApiDocument, pathTemplates } from './openapi';

/**
 * The API fuzz's fixture and invariants: one app with an anonymous caller, a logged-in user and
 * an admin, a few shorts and records for generated requests to aim at, a raw HTTP client that
 * sends what fetch would refuse or normalise (`../`, `%00`, bare bytes), and the checks every
 * answer must pass:
 *
 * 1. never a 5xx (and always an answer, within ANSWER_TIMEOUT_MS);
 * 2. every 4xx under /api (and /management) is problem+json with a consistent body, a specific
 *    errorKey (not one that only repeats the status) and no leak;
 * 3. every 2xx and 3xx is a documented status of the operation that answered, and every 2xx
 *    body matches the documented schema and content type (checkJsonAgainstSpec's rules);
 * 4. a refused request (4xx) stores nothing: the row count and contents of every table are the
 *    same before and after it.
 */

export type Identity = 'anonymous' | 'user' | 'admin';

export interface FuzzRequest {
  pathParams: Record<string, ParamValue>;
  pathEncoding: 'encoded' | 'raw';
  query: Record<string, ParamValue[] | undefined>;
  extraQuery: Array<[string, string]>;
  headerParams: Record<string, ParamValue[] | undefined>;
  body: FuzzBody;
  contentType: string | undefined;
  accept: string | undefined;
  /** Another method than the documented one (undefined: the operation's own). */
  method?: string;
  /** How a user or admin authenticates: the session cookie (a browser) or their API key (ShareX,
   * scripts); an anonymous caller with `bearer` sends a key that does not exist. */
  auth: 'session' | 'bearer';
  /** Headers nobody documented: a forged session cookie, content encodings, forwarding, caching. */
  extraHeaders: Array<[string, string]>;
}

/** The request a well-behaved client sends: valid parameters and body, JSON, fixture values. */
export function cleanRequestFor(
  op: FuzzOperation,
  keys: readonly string[],
): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  const headerParams = op.params.filter((p) => p.in === 'header');
  const auth = fc.constantFrom('session', 'session', 'session', 'bearer') as fc.Arbitrary<
    'session' | 'bearer'
  >;
  return fc.record({
    pathParams: fc.record(Object.fromEntries(pathParams.map((p) => [p.name, pathValue(p, true)]))),
    pathEncoding: fc.constant('encoded' as const),
    query: fc.record(Object.fromEntries(queryParams.map((p) => [p.name, queryValue(p, true)]))),
    extraQuery: fc.constant([] as Array<[string, string]>),
    headerParams: fc.record(
      Object.fromEntries(headerParams.map((p) => [p.name, queryValue(p, true)])),
    ),
    body: cleanBodyFor(op, keys),
    contentType: fc.constant('application/json'),
    accept: fc.constantFrom(undefined, 'application/json'),
    auth,
    extraHeaders: fc.constant([] as Array<[string, string]>),
  });
}

/**
 * The request arbitrary of one operation. `keys`: plausible property names for free-form bodies.
 * Two kinds are mixed: requests a well-behaved client sends (valid parameters and bodies, JSON,
 * fixture values in the path: these reach the handlers and their database writes), and hostile
 * ones (every part may be broken).
 */
export function requestFor(op: FuzzOperation, keys: readonly string[]): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  const headerParams = op.params.filter((p) => p.in === 'header');
  const auth = fc.constantFrom('session', 'session', 'session', 'bearer') as fc.Arbitrary<
    'session' | 'bearer'
  >;
  const clean = cleanRequestFor(op, keys);
  const hostile = fc.record({
    pathParams: fc.record(Object.fromEntries(pathParams.map((p) => [p.name, pathValue(p)]))),
    pathEncoding,
    query: fc.record(Object.fromEntries(queryParams.map((p) => [p.name, queryValue(p)]))),
    extraQuery,
    headerParams: fc.record(Object.fromEntries(headerParams.map((p) => [p.name, queryValue(p)]))),
    body: bodyFor(op, keys),
    contentType,
    accept: fc.constantFrom(undefined, 'application/json', '*/*', 'text/html', 'text/csv'),
    method: fc.oneof(
      { weight: 12, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE') },
    ),
    auth,
    extraHeaders,
  });
  return fc.oneof({ weight: 1, arbitrary: clean }, { weight: 2, arbitrary: hostile });
}

/** Longest a single answer may take (the metadata fetch alone may use 5 s). */
export const ANSWER_TIMEOUT_MS = 15_000;

/**
 * Tables written in the background, not by the request being checked: the ids of written batches
 * (`applied_batches`) and job leases (`job_locks`). Buffers that write after the answer (use counts,
 * statistics) are flushed by `quiesce()` before each checked request, so their tables stay compared;
 * a new buffer belongs there.
 */
const BACKGROUND_TABLES = new Set(['applied_batches', 'job_locks']);
/** Tables compared by row count only (a session's expiry rolls forward with every answer). */
const COUNT_ONLY_TABLES = new Set(['sessions']);
/** Columns written in the background (the buffered use counts, an API key's last use). */
const BACKGROUND_COLUMNS: Record<string, readonly string[]> = {
  api_keys: ['last_used_at'],
  // The delivery job's progress on the outbox (a request only adds rows) and what it sets on a
  // webhook that keeps failing; retries come back on their own clock.
  webhook_deliveries: [
    'status',
    'attempts',
    'next_attempt_at',
    'last_status_code',
    'last_error',
    'duration_ms',
    'delivered_at',
    'lease_holder',
    'lease_until',
  ],
  webhooks: ['enabled', 'disabled_reason', 'failing_since'],
  shorts: [
    'uses',
    'health_state',
    'health_status',
    'health_failures',
    'health_checked_at',
    'health_failing_since',
  ],
};

const LEAK = /SQLITE_|ER_[A-Z_]+|QueryFailed|ECONNREFUSED|PROTOCOL_|at \w+ \(|\/src\/|node_modules/;

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface LegFigures {
  requests: number;
  serverErrors: number;
  statuses: Record<string, number>;
  /** operation → statuses seen (to show the fuzz reaches the handlers, not only the guards). */
  perOperation: Record<string, Record<string, number>>;
}

export const PASSWORD = 'fuzz-pw-1';

function percentEncode(s: string, keep: RegExp): string {
  let out = '';
  for (const ch of s) {
    if (keep.test(ch)) out += ch;
    else
      for (const b of Buffer.from(ch, 'utf8'))
        out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
/** encodeURIComponent that survives lone surrogates (as U+FFFD, like every UTF-8 encoder). */
const encodeComponent = (s: string) => percentEncode(s, /^[A-Za-z0-9\-_.!~*'()]$/);
/** Only what HTTP cannot carry is escaped: `../`, `%00`, `?` and `#` go to the server as they are. */
const encodeRaw = (s: string) => percentEncode(s, /^[\x21-\x7e]$/);
/** Header values: visible ASCII and spaces only (anything else cannot be sent). */
const headerSafe = (s: string) => s.replace(/[^\x20-\x7e]/g, '?');

export class FuzzWorld {
  readonly slots = {} as Record<Slot, string>;
  tables: string[] = [];
  /** Property names of the admin entities (plausible keys for the free-form admin edit). */
  keys: string[] = [];
  user!: LoggedIn;
  admin!: LoggedIn;
  readonly figures: Record<Identity, LegFigures> = {
    anonymous: emptyFigures(),
    user: emptyFigures(),
    admin: emptyFigures(),
  };
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 4 });
  private readonly host: string;
  private readonly port: number;
  private lastChanged = true;
  /** The answer to the last request `run` sent (undefined when it got none). */
  lastAnswer: Answer | undefined;
  private readonly shortStates = new Map<string, string>();

  constructor(readonly t: TestApp) {
    const u = new URL(t.url);
    this.host = u.hostname;
    this.port = Number(u.port);
  }

  static async create(t: TestApp, extraKeys: readonly string[]): Promise<FuzzWorld> {
    const w = new FuzzWorld(t);
    w.tables = await w.listTables();
    await w.ensure();
    const entities = (await (
      await t.fetch('/api/admin/entity', { headers: { cookie: w.admin.cookie } })
    ).json()) as Array<{ fields: Array<{ name: string }> }>;
    w.keys = [
      ...new Set([...extraKeys, ...entities.flatMap((e) => e.fields.map((f) => f.name))]),
    ].sort();
    return w;
  }

  close(): void {
    this.agent.destroy();
  }

  private async listTables(): Promise<string[]> {
    const engine = engineOf(this.t.ds);
    const sql =
      engine === 'sqlite'
        ? "SELECT name AS t FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        : engine === 'mysql'
          ? 'SELECT table_name AS t FROM information_schema.tables WHERE table_schema = DATABASE()'
          : 'SELECT tablename AS t FROM pg_tables WHERE schemaname = current_schema()';
    const rows = await this.t.query<Array<Record<string, string>>>(sql);
    return rows
      .map((r) => r.t ?? r.T ?? Object.values(r)[0])
      .filter((name) => !BACKGROUND_TABLES.has(name))
      .sort();
  }

  /** Count and a digest of the contents of every table (see BACKGROUND_* for what is left out). */
  async snapshot(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const engine = engineOf(this.t.ds);
    const q = (name: string) => (engine === 'mysql' ? `\`${name}\`` : `"${name}"`);
    for (const table of this.tables) {
      if (COUNT_ONLY_TABLES.has(table)) {
        const [row] = await this.t.query<Array<Record<string, unknown>>>(
          `SELECT COUNT(*) AS n FROM ${q(table)}`,
        );
        out.set(table, `${Number(Object.values(row)[0])} rows`);
        continue;
      }
      const rows = await this.t.query<Array<Record<string, unknown>>>(`SELECT * FROM ${q(table)}`);
      const skip = new Set(BACKGROUND_COLUMNS[table] ?? []);
      const lines = rows
        .map((r) =>
          JSON.stringify(
            Object.keys(r)
              .filter((k) => !skip.has(k))
              .sort()
              .map((k) => [k, r[k] instanceof Date ? (r[k] as Date).toISOString() : r[k]]),
          ),
        )
        .sort();
      const digest = createHash('sha1').update(lines.join('\n')).digest('hex').slice(0, 12);
      out.set(table, `${rows.length} rows ${digest}`);
    }
    return out;
  }

  /** Writes what the app buffers, so background writes never fall into a request's window. */
  private async quiesce(): Promise<void> {
    await this.t.app.get(FollowService).flushUses();
    await this.t.app.get(StatisticsRecorder).flush();
    await this.t.app.get(WebhookDeliveryJob).idle();
  }

  /**
   * Rebuilds what a successful request may have used up: sessions (logout, a new login), the
   * user's account (deleted or deactivated by the admin), the fixture shorts and records, and
   * logger levels (reset, so a TRACE level does not flood the run).
   */
  async ensure(): Promise<void> {
    const t = this.t;
    if (!this.admin || !(await this.sessionOk(this.admin, true)))
      this.admin = await loginAs(t, 'admin');
    if (!this.user || !(await this.sessionOk(this.user, false))) {
      this.user = await loginAs(t, 'alice');
      const account = (await (await this.user.fetch('/api/account')).json()) as {
        activated: boolean;
        authorities: string[];
      };
      if (!account.activated || account.authorities.includes('ROLE_ADMIN')) {
        const res = await this.admin.put(`/api/admin/entity/users/${this.user.userId}`, {
          activated: true,
          roles: ['ROLE_USER'],
        });
        if (res.status !== 200) throw new Error(`fuzz fixture: reactivating alice: ${res.status}`);
      }
    }
    this.slots['user.id'] = this.user.userId;
    this.slots['admin.id'] = this.admin.userId;
    this.slots.password = PASSWORD;

    const shorts: Array<[string, LoggedIn | null, Record<string, unknown>]> = [
      ['userShort', this.user, { url: 'https://example.com/user', name: 'fuzz user short' }],
      ['pwShort', this.user, { url: 'https://example.com/protected', password: PASSWORD }],
      ['limitedShort', this.user, { url: 'https://example.com/limited', maxUses: 1_000_000 }],
      ['anonShort', null, { url: 'https://example.com/anonymous' }],
      ['adminShort', this.admin, { url: 'https://example.com/admin' }],
    ];
    for (const [name, owner, body] of shorts) {
      const id = this.slots[`${name}.id` as Slot];
      // A fixture short that a request edited, expired, flagged or moved is replaced by a new one.
      if (id && (await this.shortState(id)) === this.shortStates.get(name)) continue;
      const res = owner ? await owner.post('/api/code', body) : await t.post('/api/code', body);
      if (res.status !== 201) {
        throw new Error(`fuzz fixture: creating ${name}: ${res.status} ${await res.text()}`);
      }
      const { code } = (await res.json()) as { code: string };
      const [row] = await t.query<Array<{ id: string }>>('SELECT id FROM shorts WHERE code = ?', [
        code,
      ]);
      this.slots[`${name}.id` as Slot] = row.id;
      this.slots[`${name}.code` as Slot] = code;
      this.shortStates.set(name, await this.shortState(row.id));
    }

    const has = async (table: string, id: string | undefined) =>
      !!id &&
      (await t.query<unknown[]>(`SELECT 1 AS x FROM ${table} WHERE id = ?`, [id])).length > 0;
    // API keys of the user and the admin (a request may have renewed one: the old key is void).
    for (const [who, slot] of [
      [this.user, 'apikey'],
      [this.admin, 'adminApikey'],
    ] as const) {
      const stored = await t.query<Array<{ id: string; key_hash: string }>>(
        "SELECT id, key_hash FROM api_keys WHERE user_id = ? AND name = 'ShareX'",
        [who.userId],
      );
      const key = this.slots[slot];
      if (stored.length === 1 && key && stored[0].key_hash === hashApiKey(key)) {
        if (who === this.user) this.slots['apikey.id'] = stored[0].id;
        continue;
      }
      const res = await who.put('/api/self/apikey');
      if (res.status !== 200) throw new Error(`fuzz fixture: API key: ${res.status}`);
      this.slots[slot] = ((await res.json()) as { id: string }).id;
      const [row] = await t.query<Array<{ id: string }>>(
        "SELECT id FROM api_keys WHERE user_id = ? AND name = 'ShareX'",
        [who.userId],
      );
      if (who === this.user) this.slots['apikey.id'] = row.id;
    }
    if (!(await has('reports', this.slots['report.id']))) {
      const res = await this.admin.post(`/api/code/${this.slots['userShort.code']}/report`, {
        reason: 'SPAM',
        description: 'fuzz fixture report',
      });
      if (res.status !== 200 && res.status !== 409) {
        throw new Error(`fuzz fixture: report: ${res.status} ${await res.text()}`);
      }
      const rows = await t.query<Array<{ id: string }>>(
        'SELECT id FROM reports WHERE short_id = ?',
        [this.slots['userShort.id']],
      );
      if (rows.length === 0) throw new Error('fuzz fixture: no report');
      this.slots['report.id'] = rows[0].id;
    }
    if (!(await has('blacklist', this.slots['blacklist.id']))) {
      const id = randomUUID();
      const res = await this.admin.put(`/api/admin/entity/blacklist/${id}`, {
        kind: 'host',
        value: `blacklisted-${id.slice(0, 8)}.fuzz.test`,
        reason: 'fuzz fixture',
      });
      if (res.status !== 201 && res.status !== 200) {
        throw new Error(`fuzz fixture: blacklist entry: ${res.status} ${await res.text()}`);
      }
      this.slots['blacklist.id'] = id;
    }

    const log = t.app.get(LogService);
    for (const [name, level] of Object.entries(log.loggers())) {
      if (level.configuredLevel !== null) log.setLevel(name, null);
    }
  }

  /** What a fixture short must still be (everything a request could change but its use count). */
  private async shortState(id: string): Promise<string> {
    const rows = await this.t.query<Array<Record<string, unknown>>>(
      'SELECT code, url, owner_id, password_hash, max_uses, expire_at, dangerous, danger_reason, name FROM shorts WHERE id = ?',
      [id],
    );
    return JSON.stringify(rows);
  }

  private async sessionOk(who: LoggedIn, admin: boolean): Promise<boolean> {
    const res = await this.t.fetch('/api/account', { headers: { cookie: who.cookie } });
    if (res.status !== 200) return false;
    const a = (await res.json()) as { id: string; activated: boolean; authorities: string[] };
    return a.id === who.userId && a.activated && a.authorities.includes('ROLE_ADMIN') === admin;
  }

  private resolve(v: ParamValue): string {
    return v instanceof Known ? this.slots[v.slot as Slot] : v;
  }

  /** The method, raw path (with query) and headers and body a generated request turns into. */
  build(identity: Identity, op: FuzzOperation, r: FuzzRequest) {
    const enc = r.pathEncoding === 'raw' ? encodeRaw : encodeComponent;
    let path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
      enc(this.resolve(r.pathParams[name] ?? '')),
    );
    const query: string[] = [];
    for (const [name, values] of Object.entries(r.query)) {
      for (const v of values ?? []) query.push(`${encodeComponent(name)}=${enc(this.resolve(v))}`);
    }
    for (const [k, v] of r.extraQuery) query.push(`${enc(k)}=${enc(v)}`);
    if (query.length > 0) path += `?${query.join('&')}`;

    const headers: Record<string, string> = {};
    if (r.auth === 'bearer') {
      // A script or ShareX: the key, no cookie and no Origin (no CSRF rule applies).
      const key =
        identity === 'anonymous'
          ? 'us_doesnotexist'
          : this.slots[identity === 'admin' ? 'adminApikey' : 'apikey'];
      headers.authorization = `Bearer ${key}`;
    } else if (identity !== 'anonymous') {
      const who = identity === 'admin' ? this.admin : this.user;
      // What a legitimate browser sends with a state change (the CSRF rule), so the fuzz reaches
      // the handlers.
      headers.cookie = who.cookie;
      headers.origin = this.t.url;
    }
    for (const [name, values] of Object.entries(r.headerParams)) {
      if (values && values.length > 0)
        headers[name.toLowerCase()] = headerSafe(this.resolve(values[0]));
    }
    if (r.accept) headers.accept = r.accept;
    for (const [name, value] of r.extraHeaders) {
      const v = headerSafe(value);
      // A second session cookie next to the caller's own (or the only one of an anonymous caller).
      headers[name] = name === 'cookie' && headers.cookie ? `${headers.cookie}; ${v}` : v;
    }

    let body: Buffer | undefined;
    if (r.body.kind === 'json') {
      const text = JSON.stringify(r.body.value, (_k, v: unknown) =>
        v instanceof Known ? this.resolve(v) : v,
      );
      body = Buffer.from(text ?? '', 'utf8');
    } else if (r.body.kind === 'raw') {
      body = Buffer.from(r.body.text, 'utf8');
    } else if (r.body.kind === 'bytes') {
      body = Buffer.from(r.body.bytes);
    }
    if (body !== undefined && r.contentType !== undefined) headers['content-type'] = r.contentType;
    return { method: r.method ?? op.method, path, headers, body };
  }

  send(req: ReturnType<FuzzWorld['build']>): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { ...req.headers };
      if (req.body !== undefined) headers['content-length'] = req.body.length;
      const r = httpRequest(
        {
          host: this.host,
          port: this.port,
          method: req.method,
          path: req.path,
          headers,
          agent: this.agent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks),
            }),
          );
          res.on('error', reject);
        },
      );
      r.setTimeout(ANSWER_TIMEOUT_MS, () =>
        r.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)),
      );
      r.on('error', reject);
      r.end(req.body);
    });
  }

  /** Sends one generated request and returns every invariant it broke (empty: all held). */
  async run(identity: Identity, op: FuzzOperation, r: FuzzRequest): Promise<string[]> {
    if (this.lastChanged) {
      await this.quiesce();
      await this.ensure();
    }
    const req = this.build(identity, op, r);
    const before = await this.snapshot();
    let answer: Answer;
    const described = describeRequest(identity, req);
    this.lastAnswer = undefined;
    try {
      answer = await this.send(req);
      this.lastAnswer = answer;
    } catch (err) {
      this.lastChanged = true;
      return [`${described}\n  no HTTP answer: ${(err as Error).message}`];
    }
    const fig = this.figures[identity];
    fig.requests++;
    fig.statuses[answer.status] = (fig.statuses[answer.status] ?? 0) + 1;
    const per = (fig.perOperation[op.key] ??= {});
    per[answer.status] = (per[answer.status] ?? 0) + 1;
    if (answer.status >= 500) fig.serverErrors++;

    if (process.env.FUZZ_TRACE) {
      console.log(
        `${described}\n  -> ${answer.status} ${preview(answer.body.toString('utf8'), 200)}`,
      );
    }
    const violations = checkAnswer(req.method, req.path, answer);
    // A refused request stores nothing.
    if (answer.status >= 400) {
      const after = await this.snapshot();
      const changed = [...after].filter(([table, state]) => before.get(table) !== state);
      if (changed.length > 0) {
        violations.push(
          `refused with ${answer.status}, but stored: ${changed
            .map(([table, state]) => `${table} ${before.get(table)} -> ${state}`)
            .join('; ')}`,
        );
      }
    }
    // Anything that succeeded may have changed the fixture (a logout, a deleted short, a new login).
    this.lastChanged = answer.status < 400;
    return violations.map(
      (v) => `${described}\n  -> ${answer.status} ${preview(answer.body.toString('utf8'))}\n  ${v}`,
    );
  }
}

function emptyFigures(): LegFigures {
  return { requests: 0, serverErrors: 0, statuses: {}, perOperation: {} };
}

function preview(s: string, max = 300): string {
  return s.length > max ? `${s.slice(0, max)}… (${s.length} chars)` : s;
}

function describeRequest(
  identity: Identity,
  req: { method: string; path: string; headers: Record<string, string>; body?: Buffer },
): string {
  const { cookie: _cookie, ...shown } = req.headers;
  if (shown.authorization) shown.authorization = "Bearer (the caller's key)";
  return `${identity}: ${req.method} ${preview(req.path)} ${JSON.stringify(shown)} body=${
    req.body === undefined ? '(none)' : JSON.stringify(preview(req.body.toString('utf8')))
  }`;
}

/**
 * The documented operation that answers `method path`: literal paths win over templates with
 * parameters, as in the router, but only among operations of that method (`GET /api/code/import`
 * is the `GET /api/code/{id}` operation; only POST is documented for the literal path).
 */
export function operationFor(method: string, path: string): string | null {
  const doc = openApiDocument();
  const m = method.toLowerCase() as 'get';
  return pathTemplates().find((t) => t.re.test(path) && doc.paths[t.template][m])?.template ?? null;
}

/** Invariants 1–3 on one answer (see the file comment). */
export function checkAnswer(method: string, rawPath: string, answer: Answer): string[] {
  const out: string[] = [];
  // What the server routes by: the path before any query or (raw, invalid) fragment.
  const path = rawPath.split(/[?#]/)[0];
  const type = String(answer.headers['content-type'] ?? '');
  const text = answer.body.toString('utf8');
  if (answer.status >= 500) out.push(`server error ${answer.status}`);
  if (answer.status >= 400 && answer.status < 500 && /^\/(api|management)(\/|$)/.test(path)) {
    if (!/^application\/problem\+json/.test(type)) {
      out.push(`4xx without problem+json (content type "${type}")`);
    } else {
      try {
        const p = JSON.parse(text) as Record<string, unknown>;
        if (p.status !== answer.status)
          out.push(`problem status ${String(p.status)} != ${answer.status}`);
        if (typeof p.detail !== 'string' || p.error !== p.detail)
          out.push('problem without a detail repeated in error');
        if (typeof p.title !== 'string' || typeof p.instance !== 'string')
          out.push('problem without title or instance');
        if (!isSpecificErrorKey(p.errorKey))
          out.push(`problem without a specific errorKey (${String(p.errorKey)})`);
      } catch {
        out.push('problem+json that is not JSON');
      }
    }
  }
  if (answer.status >= 400 && LEAK.test(text))
    out.push('the answer leaks a driver message or stack');
  if (answer.status >= 200 && answer.status < 400) {
    const template = operationFor(method, path);
    const webPage =
      !/^\/(api|management)(\/|$)/.test(path) &&
      (method === 'GET' || method === 'HEAD') &&
      answer.status === 200 &&
      /^text\/html\b/.test(type);
    if (!template && webPage) {
      // The web client's pages (e.g. /s/ without a code is its start of the /s routes).
    } else if (!template) {
      out.push(`${answer.status} from a path no documented ${method} operation matches`);
    } else {
      let body: unknown = text === '' ? undefined : text;
      if (text !== '' && /[/+]json\b/.test(type)) {
        try {
          body = JSON.parse(text);
        } catch {
          out.push('invalid JSON in a JSON answer');
        }
      }
      try {
        if (answer.status < 300) expectMatchesSpec(method, template, answer.status, body, type);
        // A redirect's body is not for clients (Express writes "Found. Redirecting to …"): only
        // its status must be documented.
        else expectMatchesSpec(method, template, answer.status, undefined, type);
      } catch (err) {
        out.push((err as Error).message);
      }
    }
  }
  return out;
}
