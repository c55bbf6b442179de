import { expect, test } from '@playwright/test';
import { BASE, beforeEachRejectAll, seriousA11yViolations } from './support';

beforeEachRejectAll();

test('login: terms validation, one button per provider, and back to the page that sent the user', async ({
  page,
}) => {
  // A login-required page sends the anonymous visitor to /login.
  await page.goto('/shorts');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Anmelden', level: 1 })).toBeVisible();

  const providers = (await (await page.request.get('/api/auth-providers')).json()) as {
    name: string;
    url: string;
  }[];
  expect(providers.map((p) => p.name)).toContain('dev');
  await expect(page.getByRole('button', { name: /^Mit .+ anmelden$/ })).toHaveCount(
    providers.length,
  );
  for (const p of providers)
    await expect(page.getByRole('button', { name: `Mit ${p.name} anmelden` })).toBeVisible();

  // Without the terms the buttons only show the message.
  const button = page.getByRole('button', { name: 'Mit dev anmelden' });
  await button.click();
  await expect(page.getByText('Nutzungsbedingungen müssen akzeptiert werden!')).toBeVisible();
  await button.click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Nutzungsbedingungen müssen akzeptiert werden!')).toBeVisible();

  await page.getByLabel('Ich akzeptiere die Nutzungsbedingungen').check();
  await expect(page.getByText('Nutzungsbedingungen müssen akzeptiert werden!')).toHaveCount(0);
  await button.click();
  // The browser goes to the provider's url with the page to come back to.
  await expect(page).toHaveURL(`${BASE}/api/auth/dev?redirect=%2Fshorts`);
  await page.getByLabel('Benutzername').fill('lotte');
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page).toHaveURL(`${BASE}/shorts`);
  await expect(page.getByRole('button', { name: 'Benutzermenü' })).toHaveText('lotte');

  // Logged-in users are sent from /login to the start page.
  await page.goto('/login');
  await expect(page).toHaveURL(`${BASE}/`);
});

test("login from the top bar's button returns to the page the user was on", async ({ page }) => {
  await page.goto('/s');
  await page.getByRole('link', { name: 'Anmelden', exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Ich akzeptiere die Nutzungsbedingungen').check();
  await page.getByRole('button', { name: 'Mit dev anmelden' }).click();
  await expect(page).toHaveURL(`${BASE}/api/auth/dev?redirect=%2Fs`);
  await page.getByLabel('Benutzername').fill('moritz');
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page).toHaveURL(`${BASE}/s`);
  await expect(page.getByRole('button', { name: 'Benutzermenü' })).toHaveText('moritz');
});

test('a failed login is explained on the login page', async ({ page }) => {
  await page.goto('/login?error=login_failed');
  await expect(page.getByTestId('login-error')).toHaveText(
    'Die Anmeldung ist fehlgeschlagen. Bitte versuche es noch einmal.',
  );
  await page.goto('/login?error=provider_unavailable');
  await expect(page.getByTestId('login-error')).toHaveText(
    'Der Login Anbieter ist gerade nicht erreichbar. Bitte versuche es später noch einmal.',
  );
});

test('login page: no serious or critical accessibility violations (also with the message shown)', async ({
  page,
}) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Mit dev anmelden' })).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Mit dev anmelden' }).click();
  await expect(page.getByText('Nutzungsbedingungen müssen akzeptiert werden!')).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
});

test("the terms checkbox links to FOOTER_TERMS_URL; the top bar offers no 'Anmelden' on the login page", async ({
  page,
  context,
}) => {
  const terms = 'https://nutzungsbedingungen.browser-test.invalid/';
  // FOOTER_TERMS_URL as the island tells it (the main instance sets none: see below).
  await page.route(
    (url) => url.pathname === '/login',
    async (route) => {
      const res = await route.fetch();
      const body = (await res.text()).replace('"termsUrl":null', `"termsUrl":"${terms}"`);
      await route.fulfill({ response: res, body });
    },
  );
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Anmelden', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mit dev anmelden' })).toBeVisible();
  // The login page needs no way to itself.
  await expect(page.getByRole('link', { name: 'Anmelden', exact: true })).toHaveCount(0);
  const box = page.getByRole('checkbox', { name: /Ich akzeptiere die Nutzungsbedingungen/ });
  // The footer links them too; this is the checkbox's own.
  const link = page.getByRole('main').getByRole('link', { name: /^Nutzungsbedingungen/ });
  await expect(link).toHaveAttribute('href', terms);
  const [tab] = await Promise.all([context.waitForEvent('page'), link.click()]);
  await expect(tab).toHaveURL(terms);
  await tab.close();
  // Reading the terms ticks nothing; the box is still the user's to tick.
  await expect(box).not.toBeChecked();
  await box.check();
  await expect(box).toBeChecked();
  expect(await seriousA11yViolations(page)).toEqual([]);

  // Without FOOTER_TERMS_URL the sentence is plain text; elsewhere the top bar offers the login.
  await page.unrouteAll();
  await page.goto('/s');
  await expect(page.getByRole('link', { name: 'Anmelden', exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Anmelden', exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(
    page.getByRole('checkbox', { name: 'Ich akzeptiere die Nutzungsbedingungen', exact: true }),
  ).toBeVisible();
  await expect(
    page.getByRole('main').getByRole('link', { name: /^Nutzungsbedingungen/ }),
  ).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Anmelden', exact: true })).toHaveCount(0);
});
