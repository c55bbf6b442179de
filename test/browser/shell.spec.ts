import { expect, test, type Locator, type Page } from '@playwright/test';
import { captureSentry, cookieValue, FLAGS_BASE, giveConsent } from './support';

test('offline page counts down 30 s, checks, restarts, then restores the address', async ({
  page,
  context,
}) => {
  await giveConsent(context, false);
  let online = false;
  let checks = 0;
  await page.route('**/api/logged-in', (route) => {
    checks++;
    return online
      ? route.fulfill({ status: 200, contentType: 'application/json', body: '{"loggedIn":false}' })
      : route.fulfill({ status: 503, contentType: 'application/problem+json', body: '{}' });
  });
  await page.clock.install();
  await page.goto('/s');
  await page.evaluate(() =>
    (
      globalThis as unknown as { sessionStorage: { setItem(k: string, v: string): void } }
    ).sessionStorage.setItem('restore', '/s/abc123/info'),
  );
  await page.goto('/service/offline');
  await expect(page.getByRole('heading', { name: 'System nicht erreichbar' })).toBeVisible();
  await expect(page.getByTestId('offline-countdown')).toHaveText('Neuer Versuch in 30 Sekunden …');
  // Every page load asks /api/logged-in once (who is logged in); from here on only the page's checks.
  await expect.poll(() => checks).toBe(2);
  checks = 0;
  await page.clock.runFor(10_000);
  await expect(page.getByTestId('offline-countdown')).toHaveText('Neuer Versuch in 20 Sekunden …');
  await page.clock.runFor(20_000);
  await expect.poll(() => checks).toBe(1);
  await expect(page.getByTestId('offline-countdown')).toHaveText('Neuer Versuch in 30 Sekunden …');
  online = true;
  await page.clock.runFor(30_000);
  await expect(page).toHaveURL(/\/s\/abc123\/info$/);
  expect(checks).toBe(2);
});

/** A first visit of the start page (light, no consent yet): the cookie dialog. */
async function firstVisit(page: Page): Promise<Locator> {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  return page.getByRole('dialog', { name: 'Cookie-Einstellungen' });
}

test('cookie dialog: first visit (Sentry configured), reject all; the theme needs no consent', async ({
  page,
  context,
}) => {
  const dialog = await firstVisit(page);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Notwendig')).toBeDisabled();
  await expect(dialog.getByLabel('Notwendig')).toBeChecked();
  await dialog.getByRole('button', { name: 'Alle ablehnen' }).click();
  await expect(dialog).toBeHidden();
  expect(await cookieValue(context, 'sv_cookie_required')).toBe('true');
  expect(await cookieValue(context, 'sv_cookie_analytics')).toBe('false');
  expect(await cookieValue(context, 'sentry_consent')).toBe('false');
  const expiry = (await context.cookies()).find((c) => c.name === 'sv_cookie_required')!.expires;
  expect(expiry * 1000 - Date.now()).toBeGreaterThan(364 * 86400_000);
  // The theme is a preference the visitor sets: switchable after "reject all", and kept.
  const themeButton = page.getByRole('button', { name: /Design wechseln/ });
  await expect(themeButton).toBeEnabled();
  await themeButton.click();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await page.reload();
  await expect(
    page.getByRole('heading', { name: 'Teile deine Links einfach und schnell' }),
  ).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-bs-theme', 'dark');
  await expect(page.getByRole('dialog', { name: 'Cookie-Einstellungen' })).toHaveCount(0);
});

test('cookie dialog: accept all consents to what is offered; the theme switch stores the choice', async ({
  page,
  context,
}) => {
  const dialog = await firstVisit(page);
  await dialog.getByRole('button', { name: 'Alle akzeptieren' }).click();
  await expect(dialog).toBeHidden();
  expect(await cookieValue(context, 'sv_cookie_analytics')).toBe('true');
  expect(await cookieValue(context, 'sentry_consent')).toBe('true');
  // Not offered here (embedded flags, no Gravatar picture), so not consented to in advance.
  expect(await cookieValue(context, 'unleash_consent')).toBe('false');
  expect(await cookieValue(context, 'gravatar_consent')).toBe('false');
  const html = page.locator('html');
  await expect(html).not.toHaveClass(/dark/);
  const themeButton = page.getByRole('button', { name: /Design wechseln/ });
  await expect(themeButton).toBeEnabled();
  await themeButton.click();
  await expect(html).toHaveClass(/dark/);
  await expect(themeButton).toContainText('Dunkles Design');
  await page.reload();
  await expect(html).toHaveClass(/dark/);
  await expect(html).toHaveAttribute('data-bs-theme', 'dark');
});

test('cookie dialog: lists only what is configured; save selected with Analyse', async ({
  page,
  context,
}) => {
  await page.goto('/');
  const dialog = page.getByRole('dialog', { name: 'Cookie-Einstellungen' });
  await expect(dialog.locator('input[type=checkbox]')).toHaveCount(3);
  for (const absent of ['Funktional', 'Präferenzen', 'Marketing', 'Gravatar', 'Design', 'Unleash'])
    await expect(dialog.getByLabel(absent, { exact: true })).toHaveCount(0);
  await dialog.getByLabel('Analyse').check();
  await expect(dialog.getByLabel('Sentry')).toBeChecked();
  await dialog.getByRole('button', { name: 'Auswahl speichern' }).click();
  // The click returns before the page has written the cookies (seen once in CI, two workers).
  await expect.poll(() => cookieValue(context, 'sentry_consent')).toBe('true');
  expect(await cookieValue(context, 'unleash_consent')).toBe('false');
  expect(await cookieValue(context, 'analytics_consent')).toBe('true');
});

test('no request to the Sentry host before consent; Sentry starts after accept all', async ({
  page,
  context,
}) => {
  const sentry = await captureSentry(context);
  await page.goto('/');
  await expect(page.getByRole('dialog', { name: 'Cookie-Einstellungen' })).toBeVisible();
  await page.getByRole('button', { name: 'Alle ablehnen' }).click();
  await page.goto('/s');
  await page.goto('/gibt/es/nicht');
  await expect(
    page.getByRole('heading', { name: 'Teile deine Links einfach und schnell' }),
  ).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(sentry).toEqual([]);

  await page.getByRole('button', { name: 'Cookies verwalten' }).click();
  await page.getByRole('button', { name: 'Alle akzeptieren' }).click();
  await expect.poll(() => sentry.length, { timeout: 15_000 }).toBeGreaterThan(0);
});

test('maintenance and shutdown flags show their toasts; without flags there are none', async ({
  page,
  context,
}) => {
  await giveConsent(context, false);
  await page.goto('/');
  await expect(
    page.getByRole('heading', { name: 'Teile deine Links einfach und schnell' }),
  ).toBeVisible();
  const flags = await (await page.request.get('/api/frontend')).json();
  // The default flags: the experiment switch and the statistics (no operator signals), and the
  // language switch this instance runs with (playwright.config.ts, english.spec.ts).
  expect(flags.toggles.map((t: { name: string }) => t.name)).toEqual([
    'url.frontend.experimentSwitch',
    'url.frontend.languageSwitch',
    'url.frontend.statistics',
  ]);
  await expect(page.getByText(/Es finden gerade Wartungsarbeiten statt/)).toHaveCount(0);
  await expect(page.getByText(/Der Dienst ist zur Zeit nicht verfügbar/)).toHaveCount(0);

  await giveConsent(context, false, FLAGS_BASE);
  // A controlled clock: the toasts' timers run on it (time flows on until runFor moves it ahead).
  await page.clock.install();
  await page.goto(`${FLAGS_BASE}/`);
  const maintenance = page.getByTestId('toast-maintenance');
  const shutdown = page.getByTestId('toast-shutdown');
  await expect(maintenance).toContainText(
    'Es finden gerade Wartungsarbeiten statt. Die Seite ist daher nicht vollständig verfügbar. Bei Fragen und Problemen wende dich bitte an den Support.',
  );
  await expect(shutdown).toContainText(
    'Der Dienst ist zur Zeit nicht verfügbar. Bitte versuche es später noch einmal. Bei Fragen und Problemen wende dich bitte an den Support.',
  );
  await expect(shutdown.getByRole('button', { name: 'Schließen' })).toHaveCount(0);
  // Persistent: still there after the normal 5 s.
  await page.clock.runFor(5500);
  await expect(shutdown).toBeVisible();
  await maintenance.getByRole('button', { name: 'Schließen' }).click();
  await expect(maintenance).toHaveCount(0);
  await expect(shutdown).toBeVisible();
});

test('footer: version badge, links, copyright; mobile menu below 960 px', async ({
  page,
  context,
}) => {
  await giveConsent(context, true);
  await page.setViewportSize({ width: 800, height: 900 });
  await page.goto('/');
  await expect(page.getByTestId('version')).toHaveText('Version 1.7.1');
  await expect(page.getByRole('link', { name: 'Impressum' })).toHaveAttribute(
    'href',
    'https://impressum.browser-test.invalid/',
  );
  await expect(page.getByRole('link', { name: 'Wiki' })).toBeVisible();
  await expect(page.getByText(`© 2021–${new Date().getFullYear()} URL-Shorter`)).toBeVisible();
  const follow = page.getByRole('link', { name: 'Link verfolgen' });
  await expect(follow).toBeHidden();
  await page.getByRole('button', { name: 'Menü öffnen' }).click();
  await expect(follow).toBeVisible();
  await expect(page.getByRole('link', { name: 'Anmelden', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Eigene Shorts' })).toHaveCount(0);
  await page.setViewportSize({ width: 1200, height: 900 });
  await expect(page.getByRole('button', { name: 'Menü öffnen' })).toBeHidden();
  await expect(follow).toBeVisible();
  // Experiments dialog (with the embedded flags it needs no consent; given here anyway).
  await page.getByRole('button', { name: 'Experimente' }).click();
  const dialog = page.getByRole('dialog', { name: 'Experimente' });
  await expect(dialog.getByLabel('Experimente-Schalter')).toBeChecked();
  await expect(dialog.getByLabel('Experimente-Schalter')).toBeDisabled();
  await expect(dialog.getByText('Setup Wizard (Vom Server deaktiviert)')).toBeVisible();
  // The statistics are no experiment any more: the server alone switches them.
  await expect(dialog.getByText('Statistiken')).toHaveCount(0);
});
