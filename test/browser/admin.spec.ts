import { expect, test, type Page } from '@playwright/test';
import {
  apiLogin,
  BASE,
  beforeEachRejectAll,
  createShort,
  devLogin,
  seriousA11yViolations,
  TARGET_HOST,
} from './support';

async function openSection(page: Page, name: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Admin-Navigation' })
    .getByRole('link', { name, exact: true })
    .click();
  await expect(page.getByRole('heading', { name, exact: true, level: 2 })).toBeVisible();
}

async function search(page: Page, query: string): Promise<void> {
  await page.getByLabel('Suche', { exact: true }).fill(query);
  await page.getByRole('button', { name: 'Suchen' }).click();
}

/** The rows of the admin list: table rows, or cards where the table does not fit. */
const adminRows = (page: Page) => page.locator('[data-testid^="admin-row-"]');

beforeEachRejectAll();

test('a non-admin sees no Admin entry and is told on /admin that it is for admins', async ({
  page,
}) => {
  await devLogin(page, 'nina');
  await page.getByRole('button', { name: 'Benutzermenü' }).click();
  await expect(page.getByRole('button', { name: 'Account' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Admin' })).toHaveCount(0);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Kein Zugang' })).toBeVisible();
  await expect(page.getByTestId('not-admin')).toContainText('nur für Administratoren');
  await expect(page.getByRole('heading', { name: 'Administration' })).toHaveCount(0);
  // The admin API refuses her too.
  expect((await page.request.get('/api/admin/entity')).status()).toBe(403);
});

test('anonymous visitors of /admin go to /login with the warning', async ({ page }) => {
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Du musst eingeloggt sein um diese Seite zu sehen.')).toBeVisible();
});

test('admin: search, edit and delete a short', async ({ page, request }) => {
  const marker = `admin-short-${Date.now()}`;
  const code = await createShort(request, { url: `https://${TARGET_HOST}/${marker}` });
  await devLogin(page, 'admin');
  await page.getByRole('button', { name: 'Benutzermenü' }).click();
  await page.getByRole('button', { name: 'Admin', exact: true }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: 'Administration' })).toBeVisible();
  await openSection(page, 'Shorts');

  await search(page, `url:*${marker}*`);
  await expect(page.getByTestId('admin-total')).toHaveText('Treffer: 1');
  const row = adminRows(page).filter({ hasText: code });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(marker);

  // Edit: name, danger flag and reason.
  await row.getByRole('button', { name: 'Bearbeiten' }).click();
  const dialog = page.getByRole('dialog', { name: 'Shorts bearbeiten' });
  await expect(dialog.getByText(code)).toBeVisible(); // read-only fields are listed
  await dialog.getByLabel('Name', { exact: true }).fill('Vom Admin geprüft');
  await dialog.getByLabel('Max. Aufrufe').fill('0');
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(dialog.getByText('Bitte gib eine ganze Zahl ab 1 an.')).toBeVisible();
  await dialog.getByLabel('Max. Aufrufe').fill('7');
  await dialog.getByLabel('Gefährlich', { exact: true }).check();
  await dialog.getByLabel('Grund der Gefahr').selectOption('SPAM');
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText('Der Eintrag wurde gespeichert.')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('Vom Admin geprüft');
  await expect(row).toContainText('SPAM');
  const short = (await (await request.get(`/api/code/${code}?redirect=false`)).json()) as {
    name: string;
    maxUses: number;
    dangers: boolean;
  };
  expect(short).toMatchObject({ name: 'Vom Admin geprüft', maxUses: 7, dangers: true });

  // Delete with confirmation: cancel first, then really.
  await row.getByRole('button', { name: 'Löschen' }).click();
  const confirm = page.getByRole('dialog', { name: 'Eintrag löschen' });
  await expect(confirm).toContainText('Möchtest du diesen Eintrag wirklich löschen?');
  await confirm.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(confirm).toBeHidden();
  expect((await request.get(`/api/code/${code}?redirect=false`)).status()).toBe(200);
  await row.getByRole('button', { name: 'Löschen' }).click();
  await confirm.getByRole('button', { name: 'Endgültig löschen' }).click();
  await expect(page.getByText('Der Eintrag wurde gelöscht.')).toBeVisible();
  await expect(page.getByText('Keine Einträge gefunden.')).toBeVisible();
  expect((await request.get(`/api/code/${code}?redirect=false`)).status()).toBe(404);
});

test('admin: search, edit and delete a user', async ({ page, playwright }) => {
  const name = `opfer${Date.now() % 100000}`;
  const other = await playwright.request.newContext({ baseURL: BASE });
  await apiLogin(other, name);
  expect(
    ((await (await other.get('/api/account')).json()) as { activated: boolean }).activated,
  ).toBe(true);

  await devLogin(page, 'admin', '/admin?section=users');
  await expect(page.getByRole('heading', { name: 'Nutzer', level: 2 })).toBeVisible();
  await search(page, `username:${name}`);
  await expect(page.getByTestId('admin-total')).toHaveText('Treffer: 1');
  const row = adminRows(page).filter({ hasText: name });
  await row.getByRole('button', { name: 'Bearbeiten' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nutzer bearbeiten' });
  await dialog.getByLabel('Aktiviert').uncheck();
  await dialog.getByLabel('ROLE_TEAM').check();
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText('Der Eintrag wurde gespeichert.')).toBeVisible();
  await expect(row).toContainText('ROLE_TEAM');
  // The change applies to the user's next request.
  const account = (await (await other.get('/api/account')).json()) as {
    activated: boolean;
    authorities: string[];
  };
  expect(account.activated).toBe(false);
  expect(account.authorities).toContain('ROLE_TEAM');

  await row.getByRole('button', { name: 'Löschen' }).click();
  await page
    .getByRole('dialog', { name: 'Eintrag löschen' })
    .getByRole('button', { name: 'Endgültig löschen' })
    .click();
  await expect(page.getByText('Der Eintrag wurde gelöscht.')).toBeVisible();
  await expect(page.getByText('Keine Einträge gefunden.')).toBeVisible();
  expect((await other.get('/api/account')).status()).toBe(401);
  await other.dispose();
});

test('admin: a new blacklist entry refuses shorts to that host until it is deleted', async ({
  page,
  request,
}) => {
  const host = `gesperrt-${Date.now()}.browser-test.invalid`;
  await devLogin(page, 'admin', '/admin?section=blacklist');
  await expect(page.getByRole('heading', { name: 'Blacklist', level: 2 })).toBeVisible();
  await page.getByRole('button', { name: 'Neuer Eintrag' }).click();
  const dialog = page.getByRole('dialog', { name: 'Neuer Eintrag: Blacklist' });
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(dialog.getByText('Dieses Feld darf nicht leer sein.')).toHaveCount(2);
  await dialog.getByLabel('Art', { exact: true }).selectOption('host');
  await dialog.getByLabel('Wert', { exact: true }).fill(host);
  await dialog.getByLabel('Grund', { exact: true }).fill('Browser-Test');
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText('Der Eintrag wurde angelegt.')).toBeVisible();
  await expect(dialog).toBeHidden();

  const blocked = await request.post('/api/code', { data: { url: `https://sub.${host}/x` } });
  expect(blocked.status()).toBe(400);
  expect(((await blocked.json()) as { detail: string }).detail).toBe('URL is blacklisted');

  await search(page, `value:"${host}"`);
  await expect(page.getByTestId('admin-total')).toHaveText('Treffer: 1');
  await adminRows(page).filter({ hasText: host }).getByRole('button', { name: 'Löschen' }).click();
  await page
    .getByRole('dialog', { name: 'Eintrag löschen' })
    .getByRole('button', { name: 'Endgültig löschen' })
    .click();
  await expect(page.getByText('Der Eintrag wurde gelöscht.')).toBeVisible();
  expect(
    (await request.post('/api/code', { data: { url: `https://sub.${host}/x` } })).status(),
  ).toBe(201);
});

test('admin: sorting, paging and an invalid query', async ({ page, request }) => {
  const marker = `paging-${Date.now()}`;
  const codes: string[] = [];
  for (let i = 0; i < 12; i++)
    codes.push(await createShort(request, { url: `https://${TARGET_HOST}/${marker}/${i}` }));
  await devLogin(page, 'admin', '/admin?section=shorts');
  await search(page, `url:*${marker}*`);
  await expect(page.getByTestId('admin-total')).toHaveText('Treffer: 12');
  await page.getByLabel('Einträge pro Seite').selectOption('10');
  await expect(page.getByTestId('admin-page')).toHaveText('Seite 1 von 2');
  await expect(adminRows(page)).toHaveCount(10);

  // Sort by code ascending, then descending: the server orders the pages. The shorts have more
  // fields than fit beside the sidebar at 1280 px: cards, sorted with the select.
  await expect(page.getByTestId('admin-cards')).toBeVisible();
  const codesShown = adminRows(page).locator('[data-field="code"]');
  const sorted = [...codes].sort();
  await page.getByLabel('Sortieren nach').selectOption('code,asc');
  await expect(codesShown.first()).toHaveText(sorted[0]);
  await page.getByRole('button', { name: 'Nächste Seite' }).click();
  await expect(page.getByTestId('admin-page')).toHaveText('Seite 2 von 2');
  await expect(adminRows(page)).toHaveCount(2);
  await expect(codesShown.last()).toHaveText(sorted[11]);
  await page.getByLabel('Sortieren nach').selectOption('code,desc');
  await expect(page.getByTestId('admin-page')).toHaveText('Seite 1 von 2');
  await expect(codesShown.first()).toHaveText(sorted[11]);
  await page.getByLabel('Sortieren nach').selectOption('Standard');
  await expect(page.getByLabel('Sortieren nach')).toHaveValue('');

  await search(page, 'url:(');
  await expect(page.getByText(/^Die Suche ist ungültig: /)).toBeVisible();
});

test('admin: loggers, health, info and logs', async ({ page }) => {
  await devLogin(page, 'admin', '/admin?section=loggers');
  await expect(page.getByRole('heading', { name: 'Logger', level: 2 })).toBeVisible();
  const root = page.getByLabel('Level von ROOT');
  await expect(root).toBeVisible();
  await root.selectOption('ERROR');
  await expect(page.getByText('Das Level von ROOT ist jetzt ERROR.')).toBeVisible();
  let loggers = (await (await page.request.get('/management/loggers')).json()) as {
    loggers: Record<string, { configuredLevel: string | null; effectiveLevel: string }>;
  };
  expect(loggers.loggers.ROOT).toEqual({ configuredLevel: 'ERROR', effectiveLevel: 'ERROR' });
  await expect(page.getByTestId('logger-ROOT')).toContainText('ERROR');
  await root.selectOption('WARN');
  await expect(page.getByText('Das Level von ROOT ist jetzt WARN.')).toBeVisible();
  loggers = (await (await page.request.get('/management/loggers')).json()) as typeof loggers;
  expect(loggers.loggers.ROOT.configuredLevel).toBe('WARN');
  // The management logger (known since the first change) gets its own level, INFO: its own
  // change is then written to the log, which the logs section shows below.
  await page.getByLabel('Logger filtern').fill('manage');
  await expect(page.getByLabel('Level von ROOT')).toHaveCount(0);
  await page.getByLabel('Level von management').selectOption('INFO');
  await expect(page.getByText('Das Level von management ist jetzt INFO.')).toBeVisible();
  loggers = (await (await page.request.get('/management/loggers')).json()) as typeof loggers;
  expect(loggers.loggers.management).toEqual({ configuredLevel: 'INFO', effectiveLevel: 'INFO' });

  await page
    .getByRole('navigation', { name: 'Admin-Navigation' })
    .getByRole('link', { name: 'Zustand' })
    .click();
  await expect(page.getByTestId('health-status')).toHaveText('Gesamtstatus: UP');
  await expect(page.getByRole('rowheader', { name: 'db' })).toBeVisible();

  await page
    .getByRole('navigation', { name: 'Admin-Navigation' })
    .getByRole('link', { name: 'Info' })
    .click();
  await expect(page.getByTestId('info-app.version')).toContainText('1.7.1');
  await expect(page.getByTestId('info-build.time')).toBeVisible();

  await page
    .getByRole('navigation', { name: 'Admin-Navigation' })
    .getByRole('link', { name: 'Logs' })
    .click();
  // The level change above was logged by the management logger.
  await expect(page.getByTestId('admin-logs')).toContainText('admin set logger management to INFO');
  await page.getByLabel('Ab', { exact: true }).fill('2099-01-01T00:00:00');
  await page.getByRole('button', { name: 'Anzeigen' }).click();
  await expect(page.getByText('Keine Log-Einträge in diesem Zeitraum.')).toBeVisible();

  // Back to the default level.
  await page
    .getByRole('navigation', { name: 'Admin-Navigation' })
    .getByRole('link', { name: 'Logger' })
    .click();
  await page.getByLabel('Level von management').selectOption('');
  await expect(page.getByText('Das Level von management ist jetzt Standard.')).toBeVisible();
  loggers = (await (await page.request.get('/management/loggers')).json()) as typeof loggers;
  expect(loggers.loggers.management.configuredLevel).toBeNull();
});

test('admin: the sidebar can be hidden and shown; small screens open it with a button', async ({
  page,
}) => {
  await devLogin(page, 'admin', '/admin');
  const nav = page.getByRole('navigation', { name: 'Admin-Navigation' });
  await expect(nav).toBeVisible();
  await expect(page.getByRole('button', { name: 'Admin-Menü öffnen' })).toBeHidden();
  await page.getByRole('button', { name: 'Seitenleiste ausblenden' }).click();
  await expect(nav).toBeHidden();
  await page.getByRole('button', { name: 'Seitenleiste einblenden' }).click();
  await expect(nav).toBeVisible();

  await page.setViewportSize({ width: 600, height: 900 });
  await expect(nav).toBeHidden();
  await page.getByRole('button', { name: 'Admin-Menü öffnen' }).click();
  const drawer = page.getByRole('dialog', { name: 'Administration' });
  await expect(drawer).toBeVisible();
  await drawer.getByRole('link', { name: 'Blacklist' }).click();
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(/\/admin\?section=blacklist$/);
  await expect(page.getByRole('heading', { name: 'Blacklist', level: 2 })).toBeVisible();
});

test('admin: no serious or critical accessibility violations (table and edit dialog)', async ({
  page,
}) => {
  await devLogin(page, 'admin', '/admin?section=users');
  await expect(page.getByTestId('admin-total')).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/admin-users.png', fullPage: true });
  expect(await seriousA11yViolations(page)).toEqual([]);
  await adminRows(page).first().getByRole('button', { name: 'Bearbeiten' }).click();
  await expect(page.getByRole('dialog', { name: 'Nutzer bearbeiten' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/admin-edit-dialog.png' });
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.goto('/admin?section=loggers');
  await expect(page.getByLabel('Level von ROOT')).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
});
