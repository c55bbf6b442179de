import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_WEBHOOK_OPTIONS,
  DISABLED_REASON,
  WEBHOOK_OPTIONS,
  WEBHOOK_RESOLVER,
  WebhookDeliveryJob,
} from '../../src/webhooks/webhook-delivery.job';
import { DISABLE_AFTER_MS } from '../../src/webhooks/webhook-events';
import { WebhookDeliveryEntity } from '../../src/webhooks/webhook.entity';
import { HELD_GRACE_MS, WebhookService } from '../../src/webhooks/webhook.service';
import { StatisticsRecorder } from '../../src/statistics/recorder';
import { ShortChangeHub } from '../../src/shorts/short-change-hub';
import { FollowService } from '../../src/follow/follow.service';
import { FOLLOWED_MAX } from '../../src/statistics/followed';
import { systemResolver } from '../../src/metadata/safe-fetch';
import { createTestApp, type TestApp, useTestApp, useTestDatabase } from '../support/app';
import { useDomainsApp } from '../support/domains';
import { useBeforeAll } from '../support/hooks';
import { type LoggedIn, loginAs, useLogin } from '../support/login';
import { expectProblem } from '../support/problem';
import { createShort, insertShort } from '../support/shorts';
import { countOf, expectCapHoldsUnderRace } from '../support/caps';

/** A delivery must not wait the production 10 s for a receiver that never answers. */
const TIMEOUT_MS = 300;

interface Created {
  id: string;
  url: string;
  events: string[];
  team: { id: string; name: string } | null;
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
  secret?: string;
}

interface Delivery {
  id: string;
  eventId: string;
  type: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  durationMs: number | null;
  createdAt: string;
  deliveredAt: string | null;
}

interface Received {
  path: string;
  id: string;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
  raw: string;
}

/**
 * A loopback receiver: every path `/{name}` is one endpoint, whose secret the test registers;
 * each request is verified with the Standard Webhooks library (a request that fails verification
 * is kept in `bad`). `answer[name]` is the status it answers (`hang`: never).
 */
function useReceiver() {
  return useBeforeAll(
    'the webhook receiver',
    async () => {
      const secrets = new Map<string, string>();
      const answer = new Map<string, number | 'hang'>();
      const received: Received[] = [];
      const bad: string[] = [];
      const hanging = new Set<ServerResponse>();
      const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const name = (req.url ?? '/').slice(1);
          if (name.startsWith('site/')) {
            // A short's target (link health), not a webhook.
            const a = answer.get(name) ?? 200;
            return void res.writeHead(a === 'hang' ? 200 : a).end();
          }
          const secret = secrets.get(name);
          try {
            if (!secret) throw new Error(`no secret for ${name}`);
            new Webhook(secret).verify(raw, req.headers as Record<string, string>);
            received.push({
              path: name,
              id: String(req.headers['webhook-id']),
              body: JSON.parse(raw) as Received['body'],
              raw,
            });
          } catch (err) {
            bad.push(`${name}: ${String(err)}`);
          }
          const a = answer.get(name) ?? 200;
          if (a === 'hang') hanging.add(res);
          else res.writeHead(a).end();
        });
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      const port = (server.address() as { port: number }).port;
      return {
        server,
        secrets,
        answer,
        received,
        bad,
        hanging,
        url: (name: string) => `http://127.0.0.1:${port}/${name}`,
        of: (name: string) => received.filter((r) => r.path === name),
      };
    },
    async ({ server, hanging }) => {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  );
}

const ENV = { AUTH_DEV_LOGIN: 'true', ADMIN_USERS: 'dev:admin', METADATA_ALLOW_LOOPBACK: 'true' };
/** No polling: the job runs after each emit of its instance, and by hand (`run`). */
const OPTIONS = {
  overrides: [
    {
      provide: WEBHOOK_OPTIONS,
      useValue: { ...DEFAULT_WEBHOOK_OPTIONS, timeoutMs: TIMEOUT_MS, pollMs: 3_600_000 },
    },
    {
      // A name that resolves to a private address: checked when a delivery connects.
      provide: WEBHOOK_RESOLVER,
      useValue: async (host: string) =>
        host === 'private.hooks.test' ? [{ address: '10.0.0.5', family: 4 }] : systemResolver(host),
    },
  ],
};

const jobOf = (t: TestApp) => t.app.get(WebhookDeliveryJob);

async function addHook(
  u: LoggedIn,
  rx: ReturnType<typeof useReceiver>,
  name: string,
  events: string[],
  extra: Record<string, unknown> = {},
): Promise<Created> {
  const res = await u.post('/api/webhooks', { url: rx.url(name), events, ...extra });
  expect(res.status, await res.clone().text()).toBe(201);
  const body = (await res.json()) as Created;
  rx.secrets.set(name, body.secret ?? '');
  return body;
}

async function deliveries(u: LoggedIn, id: string): Promise<Delivery[]> {
  const res = await u.fetch(`/api/webhooks/${id}/deliveries?size=100`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { content: Delivery[] }).content;
}

describe('webhooks', () => {
  const rx = useReceiver();
  const t = useTestApp(ENV, OPTIONS);
  const alice = useLogin(t, 'alice');
  const bob = useLogin(t, 'bob');

  it('create answers the secret once; list and edit never show it; bad URLs are refused', async () => {
    const created = await addHook(alice, rx, 'basic', ['short.created']);
    expect(created).toMatchObject({
      url: rx.url('basic'),
      events: ['short.created'],
      team: null,
      enabled: true,
      disabledReason: null,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{40,}={0,2}$/);
    const list = (await (await alice.fetch('/api/webhooks')).json()) as Created[];
    expect(list.map((w) => w.id)).toContain(created.id);
    expect(JSON.stringify(list)).not.toContain('whsec_');
    const patched = await alice.patch(`/api/webhooks/${created.id}`, {
      events: ['short.deleted', 'short.created'],
    });
    expect(patched.status).toBe(200);
    const body = (await patched.json()) as Created;
    expect(body.events).toEqual(['short.created', 'short.deleted']);
    expect(body).not.toHaveProperty('secret');
    // The secret is stored encrypted.
    const rows = await t.query<Array<{ secret: string }>>(
      'SELECT secret FROM webhooks WHERE id = ?',
      [created.id],
    );
    expect(rows[0].secret).not.toContain(created.secret?.slice(6, 20));

    for (const url of [
      'ftp://example.com/x',
      'http://10.0.0.1/hook',
      'http://192.168.1.1/hook',
      'http://169.254.169.254/latest',
      'http://[fe80::1]/x',
      'http://user:pw@example.com/x',
      'http://93.184.215.14:22/x',
      'not a url',
    ]) {
      const res = await alice.post('/api/webhooks', { url, events: ['short.created'] });
      const p = await expectProblem(res, 400);
      expect(p.errorKey, url).toBe('webhook_url_invalid');
      expect(p.fieldErrors?.url, url).toBeTruthy();
    }
    // A name is checked when a delivery connects: one resolving to a private address is refused.
    const named = await alice.post('/api/webhooks', {
      url: 'http://private.hooks.test/x',
      events: ['short.created'],
    });
    expect(named.status).toBe(201);
    const namedId = ((await named.json()) as Created).id;
    const tried = await alice.post(`/api/webhooks/${namedId}/test`, {});
    expect(await tried.json()).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'address_refused',
    });
    expect((await alice.delete(`/api/webhooks/${namedId}`)).status).toBe(204);
    const edit = await alice.patch(`/api/webhooks/${created.id}`, { url: 'http://10.1.2.3/' });
    expect((await expectProblem(edit, 400)).errorKey).toBe('webhook_url_invalid');
    const unknownEvent = await alice.post('/api/webhooks', {
      url: rx.url('x'),
      events: ['short.exploded'],
    });
    await expectProblem(unknownEvent, 400);
    expect((await alice.delete(`/api/webhooks/${created.id}`)).status).toBe(204);
    expect((await alice.delete(`/api/webhooks/${created.id}`)).status).toBe(404);
  });

  it('create, edit and delete of a short arrive signed (one event each, verified by standardwebhooks)', async () => {
    const hook = await addHook(alice, rx, 'life', [
      'short.created',
      'short.updated',
      'short.deleted',
    ]);
    const s = await createShort(alice, { name: 'Hello' });
    await jobOf(t).idle();
    const edited = await alice.patch(`/api/code/${s.id}`, { name: 'Renamed' });
    expect(edited.status).toBe(200);
    await jobOf(t).idle();
    expect((await alice.delete(`/api/code/${s.id}`)).status).toBe(204);
    await jobOf(t).idle();
    const got = rx.of('life');
    expect(got.map((r) => r.body.type)).toEqual([
      'short.created',
      'short.updated',
      'short.deleted',
    ]);
    expect(got[0].body.data).toMatchObject({
      id: s.id,
      code: s.code,
      name: 'Hello',
      shortUrl: s.shortUrl,
    });
    expect(got[1].body.data).toMatchObject({ id: s.id, name: 'Renamed' });
    expect(got[2].body.data).toEqual({ id: s.id, code: s.code, domain: null });
    expect(new Set(got.map((r) => r.id)).size).toBe(3);
    for (const r of got) expect(Date.parse(r.body.timestamp)).not.toBeNaN();
    expect(rx.bad).toEqual([]);
    // Bob's shorts are not Alice's events.
    await createShort(bob);
    await jobOf(t).idle();
    expect(rx.of('life')).toHaveLength(3);
    const log = await deliveries(alice, hook.id);
    expect(log).toHaveLength(3);
    expect(log.every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
    expect(log[0]).toMatchObject({ type: 'short.deleted', lastStatusCode: 200, lastError: null });
    await alice.delete(`/api/webhooks/${hook.id}`);
  });

  it('a test event is sent now; failures are retried with backoff and a retry by hand keeps the webhook-id', async () => {
    const hook = await addHook(alice, rx, 'flaky', ['short.created']);
    const test = await alice.post(`/api/webhooks/${hook.id}/test`, {});
    expect(test.status).toBe(200);
    expect(await test.json()).toMatchObject({
      type: 'webhook.test',
      status: 'delivered',
      attempts: 1,
    });
    expect(rx.of('flaky').at(-1)?.body).toMatchObject({
      type: 'webhook.test',
      data: { webhook: { id: hook.id } },
    });

    rx.answer.set('flaky', 500);
    await createShort(alice);
    await jobOf(t).idle();
    let [d] = await deliveries(alice, hook.id);
    expect(d).toMatchObject({
      type: 'short.created',
      status: 'pending',
      attempts: 1,
      lastStatusCode: 500,
    });
    // Not due yet: nothing is sent.
    expect(await jobOf(t).run(new Date(Date.now() + 1_000))).toBe(0);
    // About 5 s later: the second attempt, also a 500; then about 5 min.
    expect(await jobOf(t).run(new Date(Date.now() + 6_000))).toBe(1);
    expect(await jobOf(t).run(new Date(Date.now() + 60_000))).toBe(0);
    rx.answer.set('flaky', 204);
    expect(await jobOf(t).run(new Date(Date.now() + 6 * 60_000))).toBe(1);
    [d] = await deliveries(alice, hook.id);
    expect(d).toMatchObject({
      status: 'delivered',
      attempts: 3,
      lastStatusCode: 204,
      lastError: null,
    });
    const ids = rx
      .of('flaky')
      .filter((r) => r.body.type === 'short.created')
      .map((r) => r.id);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toBe(d.eventId);

    // A retry by hand: the same webhook-id, one attempt more.
    const retry = await alice.post(`/api/webhooks/${hook.id}/deliveries/${d.id}/retry`, {});
    expect(retry.status).toBe(200);
    expect(await retry.json()).toMatchObject({ id: d.id, status: 'delivered', attempts: 4 });
    expect(rx.of('flaky').at(-1)?.id).toBe(d.eventId);
    expect(rx.bad).toEqual([]);
    await alice.delete(`/api/webhooks/${hook.id}`);
  });

  it('a receiver that hangs times out while follows stay fast; 3 days of failures disable the webhook', async () => {
    const hook = await addHook(alice, rx, 'hang', ['short.created', 'short.updated']);
    rx.answer.set('hang', 'hang');
    const s = await createShort(alice);
    // The follow does not wait for the delivery that hangs.
    const started = Date.now();
    const follow = await t.fetch(`/s/${s.code}`);
    expect(follow.status).toBe(302);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS);
    await jobOf(t).idle();
    let [d] = await deliveries(alice, hook.id);
    expect(d).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastStatusCode: null,
      lastError: 'timeout',
    });
    expect(d.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);

    // Failing for 3 days: disabled, with the reason; then nothing more is sent.
    rx.answer.set('hang', 500);
    const later = Date.now() + DISABLE_AFTER_MS + 60_000;
    await jobOf(t).run(new Date(later));
    const list = (await (await alice.fetch('/api/webhooks')).json()) as Created[];
    expect(list.find((w) => w.id === hook.id)).toMatchObject({
      enabled: false,
      disabledReason: DISABLED_REASON,
    });
    const before = rx.of('hang').length;
    await alice.patch(`/api/code/${s.id}`, { name: 'x' });
    await jobOf(t).idle();
    await jobOf(t).run(new Date(later + 24 * 3_600_000));
    expect(rx.of('hang').length).toBe(before);
    [d] = await deliveries(alice, hook.id);
    expect(d.type).toBe('short.created');
    // Enabled again by its owner: the reason goes.
    const again = (await (
      await alice.patch(`/api/webhooks/${hook.id}`, { enabled: true })
    ).json()) as Created;
    expect(again).toMatchObject({ enabled: true, disabledReason: null });
    await alice.delete(`/api/webhooks/${hook.id}`);
  });

  it('short.followed: one event per human visit with the statistics batch, never for bots, never an IP or user agent', async () => {
    const hook = await addHook(alice, rx, 'follows', ['short.followed']);
    const s = await createShort(alice, { url: 'https://example.com/followed' });
    const recorder = t.app.get(StatisticsRecorder);
    await recorder.flush();
    const follow = (headers: Record<string, string>, method = 'GET') =>
      t.fetch(`/s/${s.code}`, { method, headers });
    expect((await follow({ referer: 'https://www.News.example.org/a/b?q=1' })).status).toBe(302);
    expect((await follow({})).status).toBe(302);
    // Bots: a crawler, an empty user agent, a HEAD.
    await follow({
      'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    });
    await follow({ 'user-agent': '' });
    await follow({}, 'HEAD');
    // They go with the statistics' batch (the recorder's timer may have written it already).
    await recorder.flush();
    await jobOf(t).idle();
    // Delivered in parallel: in either order.
    const got = rx
      .of('follows')
      .sort(
        (x, y) =>
          (x.body.data.referrerHost === 'direct' ? 1 : 0) -
          (y.body.data.referrerHost === 'direct' ? 1 : 0),
      );
    expect(got).toHaveLength(2);
    expect(got[0].body.type).toBe('short.followed');
    expect(got[0].body.data).toEqual({
      short: { id: s.id, code: s.code, domain: null },
      at: expect.any(String),
      target: 'default',
      country: 'unknown',
      device: 'desktop',
      os: expect.any(String),
      browser: 'Chrome',
      referrerHost: 'news.example.org',
    });
    expect(got[1].body.data.referrerHost).toBe('direct');
    for (const r of got) {
      expect(r.raw).not.toContain('127.0.0.1');
      expect(r.raw).not.toContain('Mozilla');
      expect(r.raw).not.toContain('AppleWebKit');
    }
    expect(new Set(got.map((r) => r.id)).size).toBe(2);
    expect(rx.bad).toEqual([]);
    await alice.delete(`/api/webhooks/${hook.id}`);
  });

  it('short.followed is bounded per webhook: a burst beyond the allowance is counted, not sent', async () => {
    const hook = await addHook(alice, rx, 'flood', ['short.followed']);
    rx.answer.set('flood', 500); // nothing delivered: the rows stay to be counted
    const s = await createShort(alice);
    const userId = (
      await t.query<Array<{ id: string }>>('SELECT id FROM users WHERE username = ?', ['alice'])
    )[0].id;
    const service = t.app.get(WebhookService);
    const at = new Date();
    const visit = {
      type: 'short.followed' as const,
      space: { ownerId: userId, teamId: null },
      at,
      data: { short: { id: s.id, code: s.code, domain: null }, at: at.toISOString() },
    };
    // 20 a second with a burst of 200: 500 visits at once write 200 rows, then about 20 a second.
    expect(await service.emitMany(Array.from({ length: 500 }, () => visit))).toBe(200);
    expect(await service.emitMany(Array.from({ length: 50 }, () => visit))).toBeLessThan(40);
    await jobOf(t).idle();
    const rows = await t.query<Array<{ n: number | string }>>(
      'SELECT COUNT(*) AS n FROM webhook_deliveries WHERE webhook_id = ?',
      [hook.id],
    );
    expect(Number(rows[0].n)).toBeLessThan(240);
    await alice.delete(`/api/webhooks/${hook.id}`);
  });

  it("short.followed keeps no visit of an anonymous short: a crowd of them never takes an owned short's room", async () => {
    const hook = await addHook(alice, rx, 'crowd', ['short.followed']);
    const anonymous = await insertShort(t); // nobody's: no webhook can want its visits
    const mine = await createShort(alice, { url: 'https://example.com/crowd' });
    const recorder = t.app.get(StatisticsRecorder);
    const follow = t.app.get(FollowService);
    const as = (bot: boolean) => ({
      acceptDanger: false,
      client: '203.0.113.9',
      bot,
      visitor: {
        userAgent:
          'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
        referer: undefined,
        address: '203.0.113.9',
        country: undefined,
      },
    });
    // Both in the follow cache first (a bot's follow is no visit), so that the human follows below
    // are answered at once, with no turn of the event loop (and no flush) between them.
    await follow.follow(anonymous.code, as(true));
    await follow.follow(mine.code, as(true));
    await recorder.flush();
    // More human visits of the anonymous short than a batch keeps for the webhooks, then one of
    // alice's short.
    for (let i = 0; i < FOLLOWED_MAX; i++) {
      expect(follow.follow(anonymous.code, as(false))).toMatchObject({ kind: 'target' });
    }
    expect(follow.follow(mine.code, as(false))).toMatchObject({ kind: 'target', owned: true });
    await recorder.flush();
    await jobOf(t).idle();
    expect(rx.of('crowd').map((r) => (r.body.data.short as { id: string }).id)).toEqual([mine.id]);
    await alice.delete(`/api/webhooks/${hook.id}`);
  });

  it("short.followed's identities: many shorts in chunks that give the event loop its turns, the missing left out", async () => {
    const made = [await createShort(alice), await createShort(alice), await createShort(alice)];
    const userId = (
      await t.query<Array<{ id: string }>>('SELECT id FROM users WHERE username = ?', ['alice'])
    )[0].id;
    // 1,203 ids (a batch's visits go up to 10,000 shorts): the real ones in the first, second and
    // last chunk, the rest ids of no short.
    const ids = Array.from(
      { length: 1_200 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    ids.splice(0, 0, made[0].id);
    ids.splice(600, 0, made[1].id);
    ids.push(made[2].id);
    const hub = t.app.get(ShortChangeHub);
    // A turn of the event loop comes between chunks (SQLite's driver answers synchronously: read
    // all at once, the lookups held the loop).
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    try {
      const found = await hub.identities(ids);
      expect(found.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id))).toEqual(
        made.map((s) => ({ id: s.id, code: s.code, domain: '', ownerId: userId, teamId: null })),
      );
    } finally {
      clearInterval(ticking);
    }
    expect(turns).toBeGreaterThan(0);
    expect(await hub.identities([made[1].id])).toEqual([
      { id: made[1].id, code: made[1].code, domain: '', ownerId: userId, teamId: null },
    ]);
    expect(await hub.identities([])).toEqual([]);
  });

  it('short.health_changed when a check changes the link health', async () => {
    const hook = await addHook(alice, rx, 'health', ['short.health_changed']);
    const s = await createShort(alice, { url: rx.url('site/ok') });
    const res = await alice.post(`/api/code/${s.id}/health`, {});
    expect(res.status, await res.clone().text()).toBe(200);
    await jobOf(t).idle();
    // A second check with the same outcome changes nothing.
    await alice.post(`/api/code/${s.id}/health`, {});
    await jobOf(t).idle();
    const got = rx.of('health');
    expect(got).toHaveLength(1);
    expect(got[0].body).toMatchObject({
      type: 'short.health_changed',
      data: {
        short: { id: s.id, code: s.code, domain: null },
        previous: 'unknown',
        health: { state: 'ok', status: 200 },
      },
    });
    await alice.delete(`/api/webhooks/${hook.id}`);
  });

  it('the delivery job gives the event loop turns within a batch of claims and sends', async () => {
    const hook = await addHook(alice, rx, 'turns', ['short.created']);
    // 30 due deliveries, written as the outbox does but due later, so that no wake takes them.
    const later = Date.now() + 3_600_000;
    const rows = Array.from({ length: 30 }, (_, i) =>
      Object.assign(new WebhookDeliveryEntity(), {
        id: randomUUID(),
        eventId: `msg_turns${i}`,
        webhookId: hook.id,
        type: 'short.created',
        payload: JSON.stringify({ type: 'short.created', data: { i } }),
        status: 'pending',
        attempts: 0,
        nextAttemptAt: new Date(later),
        createdAt: new Date(),
      }),
    );
    await t.ds.getRepository(WebhookDeliveryEntity).insert(rows);
    const job = jobOf(t) as unknown as {
      claim: (...a: unknown[]) => Promise<boolean>;
      attempt: (...a: unknown[]) => Promise<void>;
    };
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    const at: Record<'claim' | 'attempt', number[]> = { claim: [], attempt: [] };
    const claim = job.claim.bind(job);
    const attempt = job.attempt.bind(job);
    const claims = vi.spyOn(job, 'claim').mockImplementation((...a) => {
      at.claim.push(turns);
      return claim(...a);
    });
    const attempts = vi.spyOn(job, 'attempt').mockImplementation((...a) => {
      at.attempt.push(turns);
      return attempt(...a);
    });
    try {
      expect(await jobOf(t).run(new Date(later + 1_000))).toBe(30);
    } finally {
      clearInterval(ticking);
      claims.mockRestore();
      attempts.mockRestore();
    }
    // The loop turned between the first claim and the last, and between the first send begun and
    // the last (on SQLite, whose driver answers at once, only because the job gives it turns).
    expect(at.claim).toHaveLength(30);
    expect(at.claim[29]).toBeGreaterThan(at.claim[0]);
    expect(at.attempt).toHaveLength(30);
    expect(at.attempt[29]).toBeGreaterThan(at.attempt[0]);
    expect(rx.of('turns')).toHaveLength(30);
    await alice.delete(`/api/webhooks/${hook.id}`);
  });

  it('a webhook turned off sends nothing', async () => {
    const hook = await addHook(alice, rx, 'off', ['short.created']);
    expect((await alice.patch(`/api/webhooks/${hook.id}`, { enabled: false })).status).toBe(200);
    await createShort(alice);
    await jobOf(t).idle();
    expect(rx.of('off')).toEqual([]);
    expect(await deliveries(alice, hook.id)).toEqual([]);
    await alice.delete(`/api/webhooks/${hook.id}`);
  });

  it('rights: another user gets 403; a team viewer may not create or change, an editor may', async () => {
    const hook = await addHook(alice, rx, 'mine', ['short.created']);
    expect((await bob.patch(`/api/webhooks/${hook.id}`, { enabled: false })).status).toBe(403);
    expect((await bob.delete(`/api/webhooks/${hook.id}`)).status).toBe(403);
    expect((await bob.fetch(`/api/webhooks/${hook.id}/deliveries`)).status).toBe(403);
    expect((await bob.post(`/api/webhooks/${hook.id}/test`, {})).status).toBe(403);
    expect(
      ((await (await bob.fetch('/api/webhooks')).json()) as Created[]).map((w) => w.id),
    ).not.toContain(hook.id);
    expect((await t.fetch('/api/webhooks')).status).toBe(401);

    const team = (await (await alice.post('/api/teams', { name: 'Hooks' })).json()) as {
      id: string;
    };
    const join = async (u: LoggedIn, role: string) => {
      const inv = (await (await alice.post(`/api/teams/${team.id}/invites`, { role })).json()) as {
        token: string;
      };
      expect((await u.post(`/api/invites/${inv.token}`, {})).status).toBe(200);
    };
    const carol = await loginAs(t, 'carol');
    const dave = await loginAs(t, 'dave');
    await join(carol, 'editor');
    await join(dave, 'viewer');
    const byViewer = await dave.post('/api/webhooks', {
      url: rx.url('team'),
      events: ['short.created'],
      team: team.id,
    });
    expect((await expectProblem(byViewer, 403)).errorKey).toBe('team_forbidden');
    const teamHook = await addHook(carol, rx, 'team', ['short.created'], { team: team.id });
    expect(teamHook.team).toEqual({ id: team.id, name: 'Hooks' });
    expect((await dave.patch(`/api/webhooks/${teamHook.id}`, { enabled: false })).status).toBe(403);
    const viewerList = (await (
      await dave.fetch(`/api/webhooks?team=${team.id}`)
    ).json()) as Created[];
    expect(viewerList.map((w) => w.id)).toEqual([teamHook.id]);
    expect((await bob.fetch(`/api/webhooks?team=${team.id}`)).status).toBe(403);
    // Without ?team= a member's list holds his own and his teams' webhooks; a stranger's not theirs.
    const all = (await (await dave.fetch('/api/webhooks')).json()) as Created[];
    expect(all.map((w) => w.id)).toContain(teamHook.id);
    const strangers = (await (await bob.fetch('/api/webhooks')).json()) as Created[];
    expect(strangers.map((w) => w.id)).not.toContain(teamHook.id);
    // A team's short goes to the team's webhook, not to its creator's own.
    const ts = await createShort(carol, { team: team.id });
    await createShort(alice);
    await jobOf(t).idle();
    expect(rx.of('team').map((r) => r.body.data.id)).toEqual([ts.id]);
    expect(rx.of('mine').map((r) => r.body.data.id)).not.toContain(ts.id);
    // The team's webhooks are the team's: the admin's may, the editor's may too.
    expect(
      (await alice.patch(`/api/webhooks/${teamHook.id}`, { events: ['short.deleted'] })).status,
    ).toBe(200);
    await alice.delete(`/api/webhooks/${hook.id}`);
    await carol.delete(`/api/webhooks/${teamHook.id}`);
  });

  it('API keys: only a key with webhooks:write reaches the webhooks', async () => {
    const keyOf = async (body: Record<string, unknown>) => {
      const res = await bob.post('/api/self/apikeys', body);
      expect(res.status, await res.clone().text()).toBe(201);
      return ((await res.json()) as { key: string }).key;
    };
    const call = (key: string, method: string, path: string, body?: unknown) =>
      t.fetch(path, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const reader = await keyOf({ name: 'hooks-reader', scopes: ['shorts:read', 'shorts:write'] });
    const writer = await keyOf({ name: 'hooks-writer', scopes: ['webhooks:write'] });
    const refused = await call(reader, 'GET', '/api/webhooks');
    expect((await expectProblem(refused, 403)).errorKey).toBe('scope_missing');
    const created = await call(writer, 'POST', '/api/webhooks', {
      url: rx.url('bykey'),
      events: ['short.created'],
    });
    expect(created.status).toBe(201);
    const w = (await created.json()) as Created;
    expect(w.team).toBeNull();
    const listed = (await (await bob.fetch('/api/webhooks')).json()) as Created[];
    expect(listed.map((x) => x.id)).toContain(w.id);
    expect((await call(writer, 'DELETE', `/api/webhooks/${w.id}`)).status).toBe(204);
  });

  it('at most 10 per user, also when created at once (409 quota_exceeded)', async () => {
    const erin = await loginAs(t, 'erin');
    await expectCapHoldsUnderRace({
      tries: 13,
      created: 10,
      cap: 10,
      create: () => erin.post('/api/webhooks', { url: rx.url('cap'), events: ['short.created'] }),
      stored: async () =>
        countOf(
          await t.query('SELECT COUNT(*) AS n FROM webhooks WHERE owner_id = ?', [erin.userId]),
        ),
    });
  });
});

describe('webhooks of domains', () => {
  const rx = useReceiver();
  const { dns, t } = useDomainsApp({ METADATA_ALLOW_LOOPBACK: 'true' });
  const alice = useLogin(t, 'alice');

  it('domain.failed when a verification fails, domain.verified when it passes', async () => {
    await addHook(alice, rx, 'domains', ['domain.verified', 'domain.failed']);
    const added = await alice.post('/api/domains', { host: 'go.hooks.example' });
    expect(added.status).toBe(201);
    const d = (await added.json()) as { id: string; verification: { value: string } };
    expect((await alice.post(`/api/domains/${d.id}/verify`, {})).status).toBe(200);
    await jobOf(t).idle();
    dns.answers.set('_url-shorter.go.hooks.example', { txt: [[d.verification.value]] });
    expect((await alice.post(`/api/domains/${d.id}/verify`, {})).status).toBe(200);
    await jobOf(t).idle();
    const got = rx.of('domains');
    expect(got.map((r) => r.body.type)).toEqual(['domain.failed', 'domain.verified']);
    expect(got[0].body.data).toMatchObject({
      domain: { id: d.id, host: 'go.hooks.example' },
      reason: expect.any(String),
      disabled: false,
    });
    expect(got[1].body.data).toMatchObject({ domain: { id: d.id }, reason: null });
    expect(rx.bad).toEqual([]);
  });
});

describe('webhooks on two instances', () => {
  const rx = useReceiver();
  const db = useTestDatabase();
  const a = useTestApp(() => ({ ...ENV, ...db.env }), OPTIONS);
  const b = useTestApp(() => ({ ...ENV, ...db.env }), OPTIONS);

  it('each event is delivered once, whichever instance runs the job', async () => {
    const alice = await loginAs(a, 'alice');
    const aliceOnB = await loginAs(b, 'alice');
    await addHook(alice, rx, 'two', ['short.created']);
    rx.answer.set('two', 500);
    const created = [];
    for (let i = 0; i < 6; i++) created.push(await createShort(i % 2 ? alice : aliceOnB));
    await Promise.all([jobOf(a).idle(), jobOf(b).idle()]);
    rx.answer.set('two', 200);
    const later = new Date(Date.now() + 10_000);
    await Promise.all([
      jobOf(a).run(later),
      jobOf(b).run(later),
      jobOf(a).run(later),
      jobOf(b).run(later),
    ]);
    const ok = rx.of('two');
    // 6 failed first attempts and 6 deliveries, each event delivered once.
    expect(ok).toHaveLength(12);
    const counts = new Map<string, number>();
    for (const r of ok) counts.set(r.id, (counts.get(r.id) ?? 0) + 1);
    expect([...counts.values()]).toEqual([2, 2, 2, 2, 2, 2]);
    expect(new Set(ok.map((r) => r.body.data.id))).toEqual(new Set(created.map((c) => c.id)));
    expect(rx.bad).toEqual([]);
  });
});

describe('webhooks after a restart', () => {
  const rx = useReceiver();
  const db = useTestDatabase();

  it('an event written just before the process stopped goes out once after the restart; deliveries go after 7 days', async () => {
    const first = await createTestApp({ ...ENV, ...db.env }, OPTIONS);
    let second: TestApp | undefined;
    try {
      const alice = await loginAs(first, 'alice');
      const hook = await addHook(alice, rx, 'restart', ['short.created']);
      // The first process sends nothing more (as if it stopped right after the answer).
      await jobOf(first).onApplicationShutdown();
      const s = await createShort(alice);
      await first.close();
      expect(rx.of('restart')).toEqual([]);
      second = await createTestApp(
        { ...ENV, ...db.env },
        {
          overrides: [
            {
              provide: WEBHOOK_OPTIONS,
              useValue: { ...DEFAULT_WEBHOOK_OPTIONS, timeoutMs: TIMEOUT_MS, pollMs: 200 },
            },
          ],
        },
      );
      const until = Date.now() + 5_000;
      while (rx.of('restart').length === 0 && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, 500));
      expect(rx.of('restart').map((r) => r.body.data.id)).toEqual([s.id]);
      expect(rx.bad).toEqual([]);
      // Kept 7 days.
      const job = jobOf(second);
      expect(await job.cleanup(new Date(Date.now() + 6 * 24 * 3_600_000))).toBe(0);
      expect(await job.cleanup(new Date(Date.now() + 8 * 24 * 3_600_000))).toBe(1);
      const left = await second.query<unknown[]>(
        'SELECT id FROM webhook_deliveries WHERE webhook_id = ?',
        [hook.id],
      );
      expect(left).toEqual([]);
    } finally {
      await second?.close();
    }
  });
});

describe('webhooks of a change whose process stopped before the event was released', () => {
  const rx = useReceiver();
  const db = useTestDatabase();

  it('held events are decided from the database: each change that happened sends once, one that did not sends nothing', async () => {
    const first = await createTestApp({ ...ENV, ...db.env }, OPTIONS);
    let second: TestApp | undefined;
    try {
      const alice = await loginAs(first, 'alice');
      const hook = await addHook(alice, rx, 'held', [
        'short.created',
        'short.updated',
        'short.deleted',
      ]);
      const edited = await createShort(alice);
      const gone = await createShort(alice);
      await jobOf(first).idle();
      const before = rx.of('held').length;
      expect(before).toBe(2);
      // From here the first process stops right after each write: its events stay held.
      const service = first.app.get(WebhookService);
      service.release = async () => false;
      await jobOf(first).onApplicationShutdown();
      const created = await createShort(alice);
      const patched = await alice.fetch(`/api/code/${edited.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'https://example.com/after-the-edit' }),
      });
      expect(patched.status).toBe(200);
      expect((await alice.fetch(`/api/code/${gone.id}`, { method: 'DELETE' })).status).toBeLessThan(
        300,
      );
      // A create that never reached the database (the process stopped before its INSERT).
      const alice0 = (
        await first.query<Array<{ id: string }>>('SELECT id FROM users WHERE username = ?', [
          'alice',
        ])
      )[0].id;
      await service.hold('short.created', [
        {
          id: '00000000-0000-4000-8000-00000000dead',
          code: 'never',
          domain: '',
          ownerId: alice0,
          teamId: null,
        },
      ]);
      // Held events are neither listed nor sent.
      expect(await deliveries(alice, hook.id)).toHaveLength(2);
      const held = await first.query<Array<{ n: number | string }>>(
        "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'held'",
      );
      expect(Number(held[0].n)).toBe(4);
      await first.close();
      expect(rx.of('held')).toHaveLength(before);

      second = await createTestApp({ ...ENV, ...db.env }, OPTIONS);
      const job = jobOf(second);
      // Within the grace a held event may still be released by its own process: left alone.
      await job.run(new Date(Date.now() + HELD_GRACE_MS / 2));
      expect(rx.of('held')).toHaveLength(before);
      const later = new Date(Date.now() + HELD_GRACE_MS + 1_000);
      await Promise.all([job.run(later), job.run(later)]);
      await job.run(later);
      const got = rx.of('held').slice(before);
      expect(
        got.map((r) => r.body.type).sort(),
        JSON.stringify(got.map((r) => [r.id, r.body.type, r.body.data.id])),
      ).toEqual(['short.created', 'short.deleted', 'short.updated']);
      const of = (type: string) => got.find((r) => r.body.type === type)!.body.data;
      expect(of('short.created').id).toBe(created.id);
      expect(of('short.updated')).toMatchObject({
        id: edited.id,
        url: 'https://example.com/after-the-edit',
      });
      expect(of('short.deleted')).toEqual({ id: gone.id, code: gone.code, domain: null });
      expect(new Set(got.map((r) => r.id)).size).toBe(3);
      expect(rx.bad).toEqual([]);
      const left = await second.query<Array<{ n: number | string }>>(
        "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'held'",
      );
      expect(Number(left[0].n)).toBe(0);
      // Listed now: the two before, and the three decided.
      const aliceOnSecond = await loginAs(second, 'alice');
      expect(await deliveries(aliceOnSecond, hook.id)).toHaveLength(5);
    } finally {
      await second?.close();
    }
  });
});
