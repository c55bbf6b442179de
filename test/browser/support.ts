import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  expect,
  test,
  type APIRequestContext,
  type BrowserContext,
  type Page,
  type PlaywrightWorkerArgs,
} from '@playwright/test';

export const PORT = process.env.BROWSER_PORT!;
export const FLAGS_PORT = process.env.BROWSER_FLAGS_PORT!;
export const BASE = `http://127.0.0.1:${PORT}`;
export const FLAGS_BASE = `http://127.0.0.1:${FLAGS_PORT}`;
export const SENTRY_HOST = 'sentry.browser-test.invalid';
/** Targets of test shorts; answered by the stub server of global-setup.ts, never by the network. */
export const TARGET_HOST = 'ziel.browser-test.invalid';

/** The consent cookies of "accept all" (or "reject all"), so the dialog stays closed. */
export async function giveConsent(
  context: BrowserContext,
  all: boolean,
  base = BASE,
): Promise<void> {
  const v = String(all);
  const names: Record<string, string> = {
    sv_cookie_required: 'true',
    sv_cookie_analytics: v,
    sv_cookie_preferences: v,
    required_consent: 'true',
    functional_consent: v,
    preferences_consent: v,
    analytics_consent: v,
    marketing_consent: v,
    gravatar_consent: v,
    unleash_consent: v,
    sentry_consent: v,
    design_consent: v,
  };
  await context.addCookies(
    Object.entries(names).map(([name, value]) => ({ name, value, url: base })),
  );
}

/**
 * Records the requests of the context to the Sentry host (answered `{}`). Every host under
 * .invalid (targets, footer links, Sentry) is answered without this by the stub server of
 * test/browser/global-setup.ts; only a test that counts Sentry's requests routes them (a routed
 * context sends all its requests through the worker and has no cache).
 */
export async function captureSentry(context: BrowserContext): Promise<string[]> {
  const sentry: string[] = [];
  await context.route(
    (url) => url.hostname === SENTRY_HOST,
    (route) => {
      sentry.push(route.request().url());
      return route.fulfill({ status: 200, contentType: 'application/json', body: '{}' });
    },
  );
  return sentry;
}

/** Every test of the file starts with "reject all" consent. */
export function beforeEachRejectAll(): void {
  test.beforeEach(async ({ context }) => {
    await giveConsent(context, false);
  });
}

/**
 * A person's desktop browser. Headless Chromium says "HeadlessChrome", a bot (isbot): a bot claims
 * no use, gets a short with a limit as a preview page and the default url of redirect rules.
 */
export const PERSON_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/**
 * Navigates from the page to `path`, as a visitor's click on a link would (page.goto does not
 * route the cross-site redirect of a follow in this setup).
 */
export async function navigateFrom(page: Page, path: string): Promise<void> {
  await page.evaluate(
    (to) =>
      (globalThis as unknown as { location: { assign(u: string): void } }).location.assign(to),
    path,
  );
}

export async function createShort(
  request: APIRequestContext,
  body: Record<string, unknown>,
): Promise<string> {
  const res = await request.post(`${BASE}/api/code`, { data: body });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { code: string }).code;
}

/**
 * Logs the page in as a dev user (the account is created on first use) and lands on `to`; the
 * user menu then shows the name (cut at 20 characters, as the client does). ADMIN_USERS in
 * playwright.config.ts makes the user "admin" an administrator.
 */
export async function devLogin(page: Page, username: string, to = '/'): Promise<void> {
  await page.goto(`/api/auth/dev?username=${username}&redirect=${encodeURIComponent(to)}`);
  const shown = username.length > 20 ? `${username.slice(0, 20)}…` : username;
  await expect(page.getByRole('button', { name: 'Benutzermenü' })).toHaveText(shown);
}

/**
 * Logs the page's context in as a dev user over HTTP, without loading a page (the account is
 * created on first use): the session cookie is the context's, so the page's next navigation and
 * page.request are the user's, and the account the session reads is checked. For tests that open
 * a page of their own next and do not test the login: devLogin loads the page it lands on first
 * (the start page by default), which costs a test about a second of a loaded machine's CPU.
 */
export async function logIn(page: Page, username: string): Promise<void> {
  const res = await page.request.get(`/api/auth/dev?username=${username}`, { maxRedirects: 0 });
  expect(res.status()).toBe(302);
  const account = await page.request.get('/api/account');
  expect(account.status()).toBe(200);
  expect(((await account.json()) as { username: string }).username).toBe(username);
}

/** Logs a separate API client in as a dev user (creates the account). */
export async function apiLogin(request: APIRequestContext, username: string): Promise<void> {
  const res = await request.get(`/api/auth/dev?username=${username}`, { maxRedirects: 0 });
  expect(res.status()).toBe(302);
}

/** An API client of its own with the app's origin (as the web client sends), logged in as `username`. */
export async function userClient(
  playwright: PlaywrightWorkerArgs['playwright'],
  username: string,
): Promise<APIRequestContext> {
  const client = await playwright.request.newContext({
    baseURL: BASE,
    extraHTTPHeaders: { Origin: BASE },
  });
  await apiLogin(client, username);
  return client;
}

/** Creates a short as the page's logged-in user (same-origin JSON, as the client does). */
export async function createOwn(page: Page, data: Record<string, unknown>): Promise<string> {
  const res = await page.request.post(`${BASE}/api/code`, { data, headers: { Origin: BASE } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { code: string }).code;
}

/**
 * Test-only fixture: one statement on a row of the main app's SQLite database, which must change
 * exactly that row. Only for rows the app has not cached yet (a short never followed, a user
 * before the next request reads them).
 */
export function changeRow(sql: string, ...params: unknown[]): void {
  const db = new Database(join(process.env.BROWSER_DATA_DIR!, 'main.db'));
  try {
    expect(db.prepare(sql).run(...params).changes).toBe(1);
  } finally {
    db.close();
  }
}

/**
 * The shorts the page tests visit, created anonymously: a plain one, one with `password` and a
 * dangerous one, to https://TARGET_HOST/{path} for each of `paths`.
 */
export async function createPageShorts(
  request: APIRequestContext,
  paths: [plain: string, withPassword: string, dangerous: string],
  password: string,
): Promise<{ code: string; pwCode: string; dangerCode: string }> {
  const code = await createShort(request, { url: `https://${TARGET_HOST}/${paths[0]}` });
  const pwCode = await createShort(request, {
    url: `https://${TARGET_HOST}/${paths[1]}`,
    password,
  });
  const dangerCode = await createShort(request, { url: `https://${TARGET_HOST}/${paths[2]}` });
  markDangerous(dangerCode);
  return { code, pwCode, dangerCode };
}

/** Flags a short dangerous directly in the app's SQLite database (before it is ever followed). */
export function markDangerous(code: string): void {
  changeRow('UPDATE shorts SET dangerous = 1 WHERE code = ?', code);
}

/**
 * Lets a short's expiry lie a minute in the past (before it is ever followed): the API takes
 * only future expiries, and a test that waits for one to pass races the clock.
 */
export function markExpired(code: string): void {
  const past = new Date(Date.now() - 60_000).toISOString().replace('T', ' ').replace('Z', '');
  changeRow('UPDATE shorts SET expire_at = ? WHERE code = ?', past, code);
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core in the page; returns serious and critical violations. */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  // Let running transitions (Bootstrap's fading modals, a hover that ended) end first: mid-fade
  // colours are blended and would be judged as low contrast. Two frames first, so that a style
  // change just made (the pointer moved away) has started its transitions.
  const hasAxe = await page.evaluate(async () => {
    const g = globalThis as unknown as {
      requestAnimationFrame(cb: () => void): number;
      document: { getAnimations(): { finished: Promise<unknown> }[] };
      axe?: unknown;
    };
    await new Promise<void>((done) =>
      g.requestAnimationFrame(() => g.requestAnimationFrame(() => done())),
    );
    await Promise.all(g.document.getAnimations().map((a) => a.finished.catch(() => undefined)));
    return g.axe !== undefined;
  });
  // Evaluated through the DevTools protocol rather than as a <script> tag, which the
  // pages' Content-Security-Policy (script-src 'self') rightly refuses; once per document.
  if (!hasAxe) await page.evaluate(`${AXE_SOURCE}\n;undefined`);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, {
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
      },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * The page has no serious or critical axe violations. The pointer goes away first and the hover
 * transitions this starts end (seriousA11yViolations waits for them): a button that opened a
 * dialog under the pointer is judged mid transition otherwise (blended colours read as low
 * contrast).
 */
export async function expectNoSeriousViolations(page: Page): Promise<void> {
  await page.mouse.move(0, 0);
  const violations = await seriousA11yViolations(page);
  expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
}

/** Reads a cookie of the page. */
export async function cookieValue(
  context: BrowserContext,
  name: string,
): Promise<string | undefined> {
  return (await context.cookies()).find((c) => c.name === name)?.value;
}
