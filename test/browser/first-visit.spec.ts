import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, test, type Page } from '@playwright/test';
import {
  BASE,
  changeRow,
  createShort,
  expectNoSeriousViolations,
  FLAGS_BASE,
  giveConsent,
  TARGET_HOST,
} from './support';

/**
 * Issue 20, the product as a newcomer meets it: the first visit asks only for what this instance
 * uses (7), details people notice (8: titles, no white flash, contrast, tap targets, URLs without
 * a scheme, a future expiry example, the password in a POST body) and honest start page figures (9).
 */

type Island = Record<string, unknown> & { flags: Record<string, unknown> };

/** Serves the app's pages with their runtime-config island changed (another configuration). */
async function withIsland(page: Page, change: (rc: Island) => void): Promise<void> {
  // Pages only: not the API, the assets, or a follow (/s/{code}, a redirect of the server).
  await page.route(
    (url) =>
      url.origin === BASE &&
      !/^\/(api|management|assets)\//.test(url.pathname) &&
      !/^\/s\/[^/]+\/?$/.test(url.pathname),
    async (route) => {
      if (route.request().resourceType() !== 'document') return route.fallback();
      const res = await route.fetch();
      const html = (await res.text()).replace(
        /(<script id="runtime-config" type="application\/json">)(.*?)(<\/script>)/s,
        (_m, open: string, json: string, close: string) => {
          const rc = JSON.parse(json) as Island;
          change(rc);
          return open + JSON.stringify(rc).replace(/</g, '\\u003c') + close;
        },
      );
      await route.fulfill({ response: res, body: html });
    },
  );
}

/** Nothing optional: no browser Sentry DSN, the embedded flags. */
const NOTHING_OPTIONAL = (rc: Island) => {
  rc.sentryDsn = null;
  rc.flags.embedded = true;
};

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe's target-size rule (WCAG 2.2 2.5.8: 24 px, or enough space around a smaller target). */
async function targetSizeViolations(page: Page): Promise<unknown[]> {
  await page.evaluate(`${AXE_SOURCE}\n;undefined`);
  return page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run: (
            ctx: unknown,
            opts: unknown,
          ) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const r = await axe.run((globalThis as unknown as { document: unknown }).document, {
      runOnly: { type: 'rule', values: ['target-size'] },
    });
    return r.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target) }));
  });
}

const startHeading = (page: Page) =>
  page.getByRole('heading', { name: 'Teile deine Links einfach und schnell' });

test.describe('7. first visit: consent only for what is used', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`nothing optional configured: no dialog, the theme switches, cookies verwalten informs (${scheme})`, async ({
      page,
      context,
    }) => {
      await withIsland(page, NOTHING_OPTIONAL);
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/');
      await expect(startHeading(page)).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      expect(await context.cookies()).toEqual([]);
      await expectNoSeriousViolations(page);

      // The theme is a preference: no consent needed.
      const theme = page.getByRole('button', { name: /Design wechseln/ });
      await expect(theme).toBeEnabled();
      await theme.click();
      await expect(page.locator('html')).toHaveAttribute(
        'data-bs-theme',
        scheme === 'light' ? 'dark' : 'light',
      );
      await theme.click();
      await expect(page.locator('html')).toHaveAttribute('data-bs-theme', scheme);
      // Experiments with the embedded flags need no consent either.
      await expect(page.getByRole('button', { name: 'Experimente' })).toBeEnabled();

      await page.getByRole('button', { name: 'Cookies verwalten' }).click();
      const dialog = page.getByRole('dialog', { name: 'Cookie-Einstellungen' });
      await expect(dialog).toContainText('Diese Seite verwendet nur notwendige Cookies.');
      await expect(dialog.locator('input[type=checkbox]')).toHaveCount(1);
      await expect(dialog.getByLabel('Notwendig')).toBeChecked();
      await expect(dialog.getByRole('button', { name: 'Alle akzeptieren' })).toHaveCount(0);
      await expectNoSeriousViolations(page);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await page.getByRole('button', { name: 'Cookies verwalten' }).click();
      await dialog.getByRole('button', { name: 'Schließen' }).click();
      await expect(dialog).toBeHidden();
      expect((await context.cookies()).filter((c) => c.name.includes('consent'))).toEqual([]);
    });

    test(`Sentry configured: the blocking dialog lists Notwendig and Analyse › Sentry only (${scheme})`, async ({
      page,
    }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/');
      const dialog = page.getByRole('dialog', { name: 'Cookie-Einstellungen' });
      await expect(dialog).toBeVisible();
      const labels = await dialog.locator('.form-check-label').allTextContents();
      expect(labels).toEqual(['Notwendig', 'Analyse', 'Sentry']);
      // Blocking: Escape does not close it before a choice.
      await page.keyboard.press('Escape');
      await expect(dialog).toBeVisible();
      await page.screenshot({ path: `test-results/screenshots/first-visit-dialog-${scheme}.png` });
      await expectNoSeriousViolations(page);
    });
  }

  test('an external Unleash is listed and gates the experiments', async ({ page }) => {
    await withIsland(page, (rc) => {
      rc.sentryDsn = null;
      rc.flags.embedded = false;
    });
    await page.goto('/');
    const dialog = page.getByRole('dialog', { name: 'Cookie-Einstellungen' });
    // The dialog loads when it is first needed: wait for it before reading its list.
    await expect(dialog).toBeVisible();
    expect(await dialog.locator('.form-check-label').allTextContents()).toEqual([
      'Notwendig',
      'Analyse',
      'Unleash',
    ]);
    await dialog.getByRole('button', { name: 'Alle ablehnen' }).click();
    await expect(
      page.getByText('Für die Experimente wird das Unleash-Cookie benötigt.'),
    ).toBeVisible();
  });

  test('a Gravatar picture is asked for once it is there', async ({ page }) => {
    await withIsland(page, NOTHING_OPTIONAL);
    await page.request.get('/api/auth/dev?username=gravatar-neu&redirect=/');
    // (A redirect's target is not routed: the page itself is opened again.)
    await page.goto('/');
    await expect(page.getByRole('button', { name: /Benutzermenü/ })).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    changeRow(
      'UPDATE users SET image_url = ? WHERE username = ?',
      'https://www.gravatar.com/avatar/neu',
      'gravatar-neu',
    );
    await page.reload();
    const dialog = page.getByRole('dialog', { name: 'Cookie-Einstellungen' });
    await expect(dialog).toBeVisible();
    expect(await dialog.locator('.form-check-label').allTextContents()).toEqual([
      'Notwendig',
      'Funktional',
      'Gravatar',
    ]);
    await dialog.getByRole('button', { name: 'Alle ablehnen' }).click();
    await expect(page.getByTestId('avatar-default').first()).toBeVisible();
  });
});

test.describe('8. details', () => {
  test.beforeEach(async ({ context }) => {
    await giveConsent(context, false);
  });

  test('a title per route', async ({ page }) => {
    const pw = await createShort(page.request, {
      url: `https://${TARGET_HOST}/titel`,
      password: 'titel-pw',
    });
    const cases: [string, string][] = [
      ['/', 'URL-Shorter: Teile deine Links einfach und schnell'],
      ['/login', 'Anmelden – URL-Shorter'],
      ['/s', 'Short nachschlagen – URL-Shorter'],
      [`/s/${pw}/info`, `Short ${pw} – URL-Shorter`],
      [`/s/${pw}/password-required`, 'Passwort erforderlich – URL-Shorter'],
      ['/service/offline', 'System nicht erreichbar – URL-Shorter'],
    ];
    for (const [path, title] of cases) {
      await page.goto(path);
      await expect(page).toHaveTitle(title);
    }
    // Navigating inside the client changes it too.
    await page.goto('/');
    await page.getByRole('link', { name: 'Link verfolgen' }).click();
    await expect(page).toHaveTitle('Short nachschlagen – URL-Shorter');
  });

  test('dark mode: color-scheme and a dark background before any script or stylesheet', async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.route(/\/assets\//, (route) => route.abort());
    await page.goto('/');
    await expect(page.locator('meta[name="color-scheme"]')).toHaveAttribute(
      'content',
      'light dark',
    );
    expect(
      await page.evaluate(
        () =>
          (
            globalThis as unknown as {
              getComputedStyle(e: unknown): { backgroundColor: string };
              document: { documentElement: unknown };
            }
          ).getComputedStyle(
            (globalThis as unknown as { document: { documentElement: unknown } }).document
              .documentElement,
          ).backgroundColor,
      ),
    ).toBe('rgb(33, 37, 41)');
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`footer buttons at AA contrast with and without consent (${scheme})`, async ({
      page,
      context,
    }) => {
      await page.emulateMedia({ colorScheme: scheme });
      for (const all of [false, true]) {
        await giveConsent(context, all);
        await page.goto('/');
        await expect(page.getByRole('button', { name: /Design wechseln/ })).toBeEnabled();
        await expectNoSeriousViolations(page);
      }
    });
  }

  test('tap targets of at least 24 px on a phone', async ({ page }) => {
    const pw = await createShort(page.request, {
      url: `https://${TARGET_HOST}/tap`,
      password: 'tap-pw',
    });
    await page.setViewportSize({ width: 375, height: 800 });
    for (const path of ['/', '/login', '/s', `/s/${pw}/password-required`]) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      expect(await targetSizeViolations(page), path).toEqual([]);
    }
    await page.goto('/');
    await page.getByRole('button', { name: 'Menü öffnen' }).click();
    await expect(page.getByRole('link', { name: 'Link verfolgen' })).toBeVisible();
    expect(await targetSizeViolations(page), 'menu').toEqual([]);
  });

  test('a URL without a scheme gets https:// (Enter and the button)', async ({ page }) => {
    await page.goto('/');
    const url = page.getByLabel('URL', { exact: true });
    await url.fill(`${TARGET_HOST}/ohne-schema`);
    await url.press('Enter');
    await expect(page).toHaveURL(/\/s\/[^/]+\/info\?show_created=true$/);
    const code = /\/s\/([^/]+)\/info/.exec(page.url())![1];
    const short = (await (await page.request.get(`/api/code/${code}?redirect=false`)).json()) as {
      url: string;
    };
    expect(short.url).toBe(`https://${TARGET_HOST}/ohne-schema`);

    await page.goto('/');
    await url.fill(`${TARGET_HOST}/per-knopf`);
    await page.getByRole('button', { name: 'Kürzen' }).click();
    await expect(page).toHaveURL(/\/info\?show_created=true$/);
    await page.goto('/');
    await url.fill(`${TARGET_HOST}/beim-verlassen`);
    await url.blur();
    await expect(url).toHaveValue(`https://${TARGET_HOST}/beim-verlassen`);
  });

  test('the expiry example is a future date', async ({ page }) => {
    await page.goto('/api/auth/dev?username=ablauf-beispiel&redirect=/');
    const expiry = page.getByLabel('Ablaufdatum');
    await expect(expiry).toHaveAttribute(
      'placeholder',
      `z. B. morgen um 15 Uhr, in 2 Tagen, 12.05.${new Date().getFullYear() + 1}`,
    );
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`password page: focused field, the password posted in the body, never in a URL (${scheme})`, async ({
      page,
    }) => {
      const password = `geheim-${scheme}`;
      const code = await createShort(page.request, {
        url: `https://${TARGET_HOST}/passwort-${scheme}`,
        password,
      });
      await page.emulateMedia({ colorScheme: scheme });
      const urls: string[] = [];
      const posts: { url: string; body: string | null }[] = [];
      page.on('request', (r) => {
        urls.push(r.url());
        if (r.method() === 'POST') posts.push({ url: r.url(), body: r.postData() });
      });
      await page.goto(`/s/${code}`);
      await expect(page).toHaveURL(new RegExp(`/s/${code}/password-required$`));
      const field = page.getByLabel('Passwort', { exact: true });
      await expect(field).toBeFocused();
      await expectNoSeriousViolations(page);

      await page.keyboard.type('falsch');
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(new RegExp(`/s/${code}/password-required\\?wrong=true$`));
      await expect(page.getByText('Das Passwort ist falsch.')).toBeVisible();
      await expect(field).toBeFocused();
      await expectNoSeriousViolations(page);

      await field.fill(password);
      await page.getByRole('button', { name: 'Link öffnen' }).click();
      await expect(page).toHaveURL(`https://${TARGET_HOST}/passwort-${scheme}`);
      expect(posts.map((p) => [new URL(p.url).pathname, p.body])).toEqual([
        [`/s/${code}`, 'password=falsch'],
        [`/s/${code}`, `password=${password}`],
      ]);
      expect(urls.filter((u) => u.includes('password=') || u.includes(password))).toEqual([]);
    });
  }
});

test.describe('9. start page figures', () => {
  test.beforeEach(async ({ context }) => {
    await giveConsent(context, false);
  });

  test("static (HOME_FIGURES=static, set explicitly): the specification's cards", async ({
    page,
  }) => {
    await withIsland(page, (rc) => {
      rc.homeFigures = 'static';
    });
    await page.goto('/');
    await expect(page.getByTestId('figures')).toHaveText(
      /300\+ Links.*100\+ Aufrufe.*41\+ Nutzer/s,
    );
  });

  test('live on a new instance: no figures rather than zeros', async ({ page }) => {
    // The counts of a new instance (the server answers a count under 10 as 0: e2e home-figures).
    let asked = 0;
    await page.route('**/api/figures', (route) => {
      asked++;
      return route.fulfill({ json: { links: 0, visits: 0, users: 0 } });
    });
    await page.goto('/');
    await expect(startHeading(page)).toBeVisible();
    await expect.poll(() => asked).toBe(1);
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('heading', { name: 'URL-Shorter in Zahlen' })).toHaveCount(0);
    await expect(page.getByTestId('figures')).toHaveCount(0);
  });

  test('off: no cards', async ({ page }) => {
    await withIsland(page, (rc) => {
      rc.homeFigures = 'off';
    });
    await page.goto('/');
    await expect(startHeading(page)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'URL-Shorter in Zahlen' })).toHaveCount(0);
  });

  test("live (the default): this instance's counts, rounded down, none under 10 (light and dark)", async ({
    page,
    context,
  }) => {
    // The flags instance runs with the default HOME_FIGURES (playwright.config.ts): 12 shorts and
    // 3 uses show only the links' card (a count under 10 has none).
    await giveConsent(context, false, FLAGS_BASE);
    const codes: string[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await page.request.post(`${FLAGS_BASE}/api/code`, {
        data: { url: `https://${TARGET_HOST}/zahl-${i}` },
      });
      expect(res.status()).toBe(201);
      codes.push(((await res.json()) as { code: string }).code);
    }
    for (let i = 0; i < 3; i++) {
      const res = await page.request.get(`${FLAGS_BASE}/s/${codes[0]}`, {
        maxRedirects: 0,
        headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36' },
      });
      expect(res.status()).toBe(302);
    }
    // Uses of unlimited shorts are written about every second.
    await expect
      .poll(() => {
        const db = new Database(join(process.env.BROWSER_DATA_DIR!, 'flags.db'), {
          readonly: true,
        });
        try {
          return (db.prepare('SELECT SUM(uses) AS n FROM shorts').get() as { n: number }).n;
        } finally {
          db.close();
        }
      })
      .toBe(3);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${FLAGS_BASE}/`);
      const figures = page.getByTestId('figures');
      await expect(figures).toHaveText(/^10\+ Links\s*wurden bereits gekürzt$/);
      await expect(figures.getByText(/Aufrufe|Nutzer/)).toHaveCount(0);
      await page.screenshot({
        path: `test-results/screenshots/figures-live-${scheme}.png`,
        fullPage: true,
      });
      await expectNoSeriousViolations(page);
    }
  });
});
