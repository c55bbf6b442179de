import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';

export const PORT = process.env.BROWSER_PORT!;
export const FLAGS_PORT = process.env.BROWSER_FLAGS_PORT!;
export const BASE = `http://127.0.0.1:${PORT}`;
export const FLAGS_BASE = `http://127.0.0.1:${FLAGS_PORT}`;
export const SENTRY_HOST = 'sentry.browser-test.invalid';
/** Targets of test shorts; answered by page.route, never by the network. */
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

/** Every request to the network outside the app is answered locally (targets, Sentry, footer links). */
export async function stubExternal(context: BrowserContext): Promise<{ sentry: string[] }> {
  const sentry: string[] = [];
  await context.route(
    (url) => url.hostname.endsWith('.invalid'),
    async (route) => {
      const url = new URL(route.request().url());
      if (url.hostname === SENTRY_HOST) {
        sentry.push(url.href);
        return route.fulfill({ status: 200, contentType: 'application/json', body: '{}' });
      }
      return route.fulfill({
        status: 200,
        contentType: 'text/html; charset=utf-8',
        body: `<!doctype html><html lang="de"><head><title>Zielseite</title></head><body><h1>Zielseite ${url.pathname}</h1></body></html>`,
      });
    },
  );
  return { sentry };
}

export async function createShort(
  request: APIRequestContext,
  body: Record<string, unknown>,
): Promise<string> {
  const res = await request.post(`${BASE}/api/code`, { data: body });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { code: string }).code;
}

/** Flags a short dangerous directly in the app's SQLite database (before it is ever followed). */
export function markDangerous(code: string): void {
  const db = new Database(join(process.env.BROWSER_DATA_DIR!, 'main.db'));
  try {
    const r = db.prepare('UPDATE shorts SET dangerous = 1 WHERE code = ?').run(code);
    expect(r.changes).toBe(1);
  } finally {
    db.close();
  }
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
  // Let running transitions (Bootstrap's fading modals) end first: mid-fade colours are blended
  // and would be judged as low contrast.
  await page.evaluate(() =>
    Promise.all(
      (
        globalThis as unknown as { document: { getAnimations(): { finished: Promise<unknown> }[] } }
      ).document
        .getAnimations()
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  // Evaluated through the DevTools protocol rather than as a <script> tag, which the
  // pages' Content-Security-Policy (script-src 'self') rightly refuses.
  await page.evaluate(`${AXE_SOURCE}\n;undefined`);
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

/** Reads a cookie of the page. */
export async function cookieValue(
  context: BrowserContext,
  name: string,
): Promise<string | undefined> {
  return (await context.cookies()).find((c) => c.name === name)?.value;
}
