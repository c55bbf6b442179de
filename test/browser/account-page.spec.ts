import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import {
  BASE,
  beforeEachRejectAll,
  changeRow,
  devLogin,
  giveConsent,
  logIn,
  seriousA11yViolations,
  TARGET_HOST,
} from './support';

/** Changes a user row directly in the app's SQLite database. */
function updateUser(username: string, set: string, value: unknown): void {
  changeRow(`UPDATE users SET ${set} = ? WHERE username = ?`, value, username);
}

/** The flag service's answer with the Setup Wizard switched on (and the local switch on too). */
async function enableWizard(page: Page): Promise<void> {
  await page.addInitScript(() =>
    (globalThis as any).localStorage.setItem(
      'flags',
      JSON.stringify(['url.frontend.account.wizard']),
    ),
  );
  await page.route(
    (u) => u.pathname === '/api/frontend',
    async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as { toggles: { name: string }[] };
      body.toggles.push({
        name: 'url.frontend.account.wizard',
        enabled: true,
        variant: { name: 'disabled', enabled: false },
      } as never);
      await route.fulfill({ response: res, json: body });
    },
  );
}

const keyField = (page: Page) => page.locator('#api-key');

/**
 * The server fails every (re)generation of the API key (PUT /api/self/apikey) with a 500, until
 * the returned function is called.
 */
async function failKeyGeneration(page: Page): Promise<() => Promise<void>> {
  const apikey = (u: URL) => u.pathname === '/api/self/apikey';
  await page.route(apikey, (route) =>
    route.request().method() === 'PUT'
      ? route.fulfill({
          status: 500,
          contentType: 'application/problem+json',
          body: '{"status":500}',
        })
      : route.continue(),
  );
  return () => page.unroute(apikey);
}

beforeEachRejectAll();

test('profile: default avatar without gravatar consent, username cut at 20, e-mail, member since, no badge', async ({
  page,
}) => {
  const name = 'ein-sehr-langer-benutzername';
  await devLogin(page, name);
  updateUser(name, 'image_url', 'https://www.gravatar.com/avatar/abc');
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Dein Account', level: 1 })).toBeVisible();
  await expect(page.getByTestId('account-username')).toHaveText('ein-sehr-langer-benu…');
  await expect(page.getByTestId('account-email')).toHaveText(`${name}@dev.invalid`);
  await expect(page.getByTestId('account-member-since')).toHaveText(
    /^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/,
  );
  await expect(page.getByTestId('account-profile').getByTestId('avatar-default')).toBeVisible();
  await expect(page.getByTestId('not-activated')).toHaveCount(0);
});

test('profile: gravatar with consent; Nicht aktiviert badge', async ({ page, context }) => {
  await giveConsent(context, true);
  await context.route('https://www.gravatar.com/**', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'image/svg+xml',
      body: '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>',
    }),
  );
  await logIn(page, 'gesperrt');
  updateUser('gesperrt', 'image_url', 'https://www.gravatar.com/avatar/def');
  updateUser('gesperrt', 'activated', 0);
  await page.goto('/account');
  await expect(page.getByTestId('account-username')).toContainText('gesperrt');
  await expect(page.getByTestId('not-activated')).toHaveText('Nicht aktiviert');
  await expect(page.getByTestId('account-profile').locator('img')).toHaveAttribute(
    'src',
    'https://www.gravatar.com/avatar/def',
  );
});

test('API key: tooltip when none, generate, reveal, copy, regenerate with confirmation', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
  await logIn(page, 'schluessel');
  await page.goto('/account');
  const panel = page.getByTestId('api-key-panel');
  await expect(panel.getByRole('button', { name: 'Api Key generieren' })).toBeEnabled();
  await expect(panel.getByRole('button', { name: 'Anzeigen' })).toBeDisabled();
  await page.getByTestId('api-key-none').hover();
  await expect(page.getByRole('tooltip')).toHaveText('Es wurde noch kein Api Key generiert');
  // ShareX needs a key first.
  await expect(page.getByRole('button', { name: 'ShareX.sxcu herunterladen' })).toBeDisabled();

  await panel.getByRole('button', { name: 'Api Key generieren' }).click();
  const confirm = page.getByRole('dialog', { name: 'Neuen Api Key generieren' });
  await expect(confirm).toContainText('Möchtest du wirklich einen neuen Api Key generieren?');
  await confirm.getByRole('button', { name: 'Api Key generieren' }).click();
  await expect(page.getByText('Api Key erfolgreich generiert!')).toBeVisible();
  await expect(confirm).toHaveCount(0);

  const server1 = ((await (await page.request.get('/api/self/apikey')).json()) as { id: string })
    .id;
  await expect(keyField(page)).toHaveAttribute('type', 'password');
  await expect(keyField(page)).toHaveValue(server1);
  await panel.getByRole('button', { name: 'Anzeigen' }).click();
  await expect(keyField(page)).toHaveAttribute('type', 'text');
  await panel.getByRole('button', { name: 'Verbergen' }).click();
  await expect(keyField(page)).toHaveAttribute('type', 'password');

  const copyButton = page.getByTestId('api-key-copy');
  await copyButton.click();
  await expect(copyButton).toHaveText('Kopiert!');
  expect(
    await page.evaluate(
      () => (globalThis as any).navigator.clipboard.readText() as Promise<string>,
    ),
  ).toBe(server1);
  // After 3 s the button reads Kopieren again.
  await expect(copyButton).toHaveText('Kopieren');

  // Regenerate: cancel keeps the key; confirming renews it and the old one stops working.
  await panel.getByRole('button', { name: 'Neu generieren' }).click();
  await expect(confirm).toContainText('Möchtest du wirklich einen neuen Api Key generieren?');
  await confirm.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(keyField(page)).toHaveValue(server1);

  await panel.getByRole('button', { name: 'Neu generieren' }).click();
  await confirm.getByRole('button', { name: 'Ja, neu generieren' }).click();
  await expect(page.getByText('Api Key erfolgreich neu generiert!')).toBeVisible();
  await expect(keyField(page)).not.toHaveValue(server1);
  const server2 = ((await (await page.request.get('/api/self/apikey')).json()) as { id: string })
    .id;
  await expect(keyField(page)).toHaveValue(server2);
  const old = await fetch(`${BASE}/api/code?size=1`, {
    headers: { Authorization: `Bearer ${server1}` },
  });
  expect(old.status).toBe(401);
  const current = await fetch(`${BASE}/api/code?size=1`, {
    headers: { Authorization: `Bearer ${server2}` },
  });
  expect(current.status).toBe(200);

  // A failing renewal says so and keeps the key.
  await failKeyGeneration(page);
  await panel.getByRole('button', { name: 'Neu generieren' }).click();
  await confirm.getByRole('button', { name: 'Ja, neu generieren' }).click();
  await expect(page.getByText('Api Key konnte nicht neu generiert werden!')).toBeVisible();
  await expect(keyField(page)).toHaveValue(server2);
});

test('a failing first generation says so; a failing copy says so', async ({ page }) => {
  await logIn(page, 'ohne-glueck');
  const stopFailing = await failKeyGeneration(page);
  await page.goto('/account');
  await page
    .getByTestId('api-key-panel')
    .getByRole('button', { name: 'Api Key generieren' })
    .click();
  await page
    .getByRole('dialog', { name: 'Neuen Api Key generieren' })
    .getByRole('button', { name: 'Api Key generieren' })
    .click();
  await expect(page.getByText('Api Key konnte nicht generiert werden!')).toBeVisible();
  await expect(keyField(page)).toHaveValue('');

  // Copy without a usable clipboard.
  await stopFailing();
  expect(
    await page.evaluate(() => fetch('/api/self/apikey', { method: 'PUT' }).then((r) => r.status)),
  ).toBe(200);
  await page.addInitScript(() => {
    Object.defineProperty((globalThis as any).navigator, 'clipboard', {
      value: { writeText: () => Promise.reject(new Error('nein')) },
    });
  });
  await page.reload();
  await page.getByTestId('api-key-copy').click();
  await expect(page.getByTestId('api-key-copy')).toHaveText('Kopieren fehlgeschlagen!');
});

test('ShareX: the downloaded ShareX.sxcu creates a short over HTTP exactly as ShareX would; copy gives the same config', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
  await logIn(page, 'sharex-nutzer');
  const key = (
    (await (await page.request.put('/api/self/apikey', { headers: { Origin: BASE } })).json()) as {
      id: string;
    }
  ).id;
  await page.goto('/account');
  await expect(keyField(page)).toHaveValue(key);

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'ShareX.sxcu herunterladen' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('ShareX.sxcu');
  const config = JSON.parse(readFileSync((await download.path())!, 'utf8')) as Record<
    string,
    unknown
  > & {
    RequestURL: string;
    RequestMethod: string;
    Headers: Record<string, string>;
    Body: string;
    Data: string;
    URL: string;
    DeletionURL: string;
    ErrorMessage: string;
  };
  expect(config).toMatchObject({
    DestinationType: 'URLShortener',
    RequestMethod: 'POST',
    RequestURL: `${BASE}/api/code/`,
    Headers: { Authorization: `Bearer ${key}` },
    Body: 'JSON',
    URL: `${BASE}/s/{json:code}`,
    DeletionURL: `${BASE}/s/{json:code}/delete`,
    ErrorMessage: '{json:error}',
  });
  expect(typeof config.Version).toBe('string');
  expect(typeof config.Name).toBe('string');

  // ShareX: POST the JSON body with {input} replaced (JSON-escaped) and the configured headers, no cookies.
  const target = `https://${TARGET_HOST}/sharex?a=1&b="zwei"`;
  const data = config.Data.replace('{input}', JSON.stringify(target).slice(1, -1));
  const res = await fetch(config.RequestURL, {
    method: config.RequestMethod,
    headers: { ...config.Headers, 'Content-Type': 'application/json' },
    body: data,
  });
  expect(res.status).toBe(201);
  const answer = (await res.json()) as Record<string, string>;
  const resolve = (template: string, json: Record<string, string>) =>
    template.replace(/\{json:(\w+)\}/g, (_, k: string) => json[k]);
  const shortUrl = resolve(config.URL, answer);
  expect(shortUrl).toMatch(new RegExp(`^${BASE}/s/[A-Za-z0-9]+$`));

  // Following the short URL ends at the target.
  let next = shortUrl;
  for (let hop = 0; hop < 3 && !next.startsWith(`https://${TARGET_HOST}`); hop++) {
    const r = await fetch(next, { redirect: 'manual' });
    expect(r.status).toBe(302);
    next = new URL(r.headers.get('location')!, next).href;
  }
  expect(next).toBe(new URL(target).href);

  // The short belongs to the key's user: it is in the table.
  await page.goto('/shorts');
  await expect(page.getByTestId('short-row')).toHaveCount(1);
  await expect(page.getByTestId('short-row').first()).toHaveAttribute('data-code', answer.code);

  // The deletion URL opens the delete confirmation of the info page.
  await page.goto(resolve(config.DeletionURL, answer));
  await expect(page).toHaveURL(new RegExp(`/s/${answer.code}/info\\?show_delete=true$`));
  await expect(page.getByRole('button', { name: 'Endgültig löschen' })).toBeVisible();

  // An error answer fills ShareX's error message.
  const bad = await fetch(config.RequestURL, {
    method: 'POST',
    headers: { ...config.Headers, 'Content-Type': 'application/json' },
    body: config.Data.replace('{input}', 'javascript:alert(1)'),
  });
  expect(bad.status).toBe(400);
  expect(resolve(config.ErrorMessage, (await bad.json()) as Record<string, string>)).not.toBe('');

  // Copy: the same config as text.
  await page.goto('/account');
  await page.getByTestId('sharex-copy').click();
  await expect(page.getByTestId('sharex-copy')).toHaveText('Kopiert!');
  expect(
    JSON.parse(
      await page.evaluate(
        () => (globalThis as any).navigator.clipboard.readText() as Promise<string>,
      ),
    ),
  ).toEqual(config);
});

test('Setup Wizard: hidden without the flag; with it, show_wizard opens the steps', async ({
  page,
}) => {
  await logIn(page, 'zauberer');
  await page.goto('/account');
  await expect(page.getByTestId('sharex-panel')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Setup Wizard öffnen' })).toHaveCount(0);
  await page.goto('/account?show_wizard=true');
  await expect(page.getByTestId('sharex-panel')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'ShareX einrichten' })).toHaveCount(0);

  await enableWizard(page);
  await page.goto('/account');
  await page.getByRole('button', { name: 'Setup Wizard öffnen' }).click();
  await expect(page).toHaveURL(/\/account\?show_wizard=true$/);
  const wizard = page.getByRole('dialog', { name: 'ShareX einrichten' });
  await expect(wizard).toContainText('Schritt 1 von 6');
  await expect(wizard.getByRole('heading', { name: 'ShareX installieren' })).toBeVisible();
  await expect(wizard.getByRole('button', { name: 'Zurück' })).toBeDisabled();
  await wizard.getByRole('button', { name: 'Weiter' }).click();
  await expect(wizard).toContainText('Schritt 2 von 6');
  // No key yet: the wizard generates one.
  await wizard.getByRole('button', { name: 'Api Key generieren' }).click();
  await expect(page.getByText('Api Key erfolgreich generiert!')).toBeVisible();
  await expect(wizard.getByRole('button', { name: 'Api Key generieren' })).toHaveCount(0);
  await wizard.getByRole('button', { name: 'Weiter' }).click();
  await expect(wizard.getByRole('heading', { name: 'Konfiguration herunterladen' })).toBeVisible();
  const downloading = page.waitForEvent('download');
  await wizard.getByRole('button', { name: 'ShareX.sxcu herunterladen' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('ShareX.sxcu');
  expect(JSON.parse(readFileSync((await download.path())!, 'utf8'))).toMatchObject({
    DestinationType: 'URLShortener',
  });
  await wizard.getByRole('button', { name: 'Weiter' }).click();
  await expect(wizard.getByRole('heading', { name: 'In ShareX importieren' })).toBeVisible();
  await wizard.getByRole('button', { name: 'Weiter' }).click();
  await expect(wizard.getByRole('heading', { name: 'Als URL-Kürzer festlegen' })).toBeVisible();
  await wizard.getByRole('button', { name: 'Weiter' }).click();
  await expect(wizard).toContainText('Schritt 6 von 6');
  await expect(wizard.getByRole('heading', { name: 'Ausprobieren' })).toBeVisible();
  await wizard.getByRole('button', { name: 'Fertig' }).click();
  await expect(wizard).toHaveCount(0);
  await expect(page).toHaveURL(/\/account$/);

  // The query alone opens it.
  await page.goto('/account?show_wizard=true');
  await expect(page.getByRole('dialog', { name: 'ShareX einrichten' })).toContainText(
    'Schritt 1 von 6',
  );
});

for (const scheme of ['light', 'dark'] as const) {
  test(`axe (${scheme}): /account without and with a key, and the wizard, have no serious or critical violations`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await enableWizard(page);
    await logIn(page, `barrierefrei-${scheme}`);
    await page.goto('/account');
    await expect(
      page.getByTestId('api-key-panel').getByRole('button', { name: 'Api Key generieren' }),
    ).toBeEnabled();
    let violations = await seriousA11yViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
    await page.request.put('/api/self/apikey', { headers: { Origin: BASE } });
    await page.reload();
    await expect(
      page.getByTestId('api-key-panel').getByRole('button', { name: 'Neu generieren' }),
    ).toBeEnabled();
    await page.screenshot({
      path: `test-results/screenshots/account-${scheme}.png`,
      fullPage: true,
    });
    violations = await seriousA11yViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
    await page.getByRole('button', { name: 'Setup Wizard öffnen' }).click();
    await expect(page.getByRole('dialog', { name: 'ShareX einrichten' })).toBeVisible();
    violations = await seriousA11yViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
  });
}
