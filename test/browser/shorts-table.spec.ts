import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  BASE,
  expectNoSeriousViolations,
  giveConsent,
  logIn,
  markDangerous,
  seriousA11yViolations,
  TARGET_HOST,
} from './support';

// The 'Deine Shorts' table against 300 shorts seeded through the API as the logged-in user.
// The tests share that user's data and run in order (the delete tests come last).
test.describe.configure({ mode: 'serial' });

const USER = 'tabelle';
const COUNT = 300;
const pad = (i: number) => String(i).padStart(3, '0');
const LONG_URL = `https://${TARGET_HOST}/lang/${'x'.repeat(150)}`;

/** Creates shorts as the session user (same-origin JSON, as the web client does). */
async function seed(request: APIRequestContext, bodies: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < bodies.length; i += 25) {
    await Promise.all(
      bodies.slice(i, i + 25).map(async (data) => {
        const res = await request.post(`${BASE}/api/code`, { data, headers: { Origin: BASE } });
        expect(res.status(), await res.text()).toBe(201);
      }),
    );
  }
}

async function ownTotal(request: APIRequestContext, search?: string): Promise<number> {
  const res = await request.get(`${BASE}/api/code`, {
    params: { size: 1, ...(search ? { search } : {}) },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { totalElements: number }).totalElements;
}

const rows = (page: Page) => page.getByTestId('short-row');
const codes = (page: Page) =>
  rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-code')));

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${BASE}/api/auth/dev?username=${USER}&redirect=/`);
  const bodies = Array.from({ length: COUNT }, (_, k) => {
    const i = k + 1;
    return {
      url: i === 7 ? LONG_URL : `https://${TARGET_HOST}/seite/${pad(i)}`,
      code: `tab-${pad(i)}`,
      name: `Eintrag ${pad(i)}`,
      ...(i % 50 === 0 ? { maxUses: i } : {}),
    };
  });
  await seed(context.request, bodies);
  expect(await ownTotal(context.request)).toBe(COUNT);
  markDangerous('tab-005');
  await context.close();
});

test.beforeEach(async ({ context, page }) => {
  await giveConsent(context, false);
  await logIn(page, USER);
});

test('default view: visible columns, page bar, page size, first page sorted by creation', async ({
  page,
}) => {
  const listCall = page.waitForRequest(
    (r) => r.url().includes('/api/code?') && r.method() === 'GET',
  );
  await page.goto('/shorts');
  const url = new URL((await listCall).url());
  expect(url.searchParams.get('page')).toBe('0');
  expect(url.searchParams.get('size')).toBe('20');
  expect(url.searchParams.getAll('sort')).toEqual(['createdAt,desc']);

  await expect(page.getByRole('heading', { name: 'Deine Shorts', level: 1 })).toBeVisible();
  const table = page.getByTestId('shorts-table');
  const headers = table.locator('thead th');
  await expect(headers).toHaveText([
    /^$/,
    /Name/,
    /Code/,
    /Url/,
    /^Aufrufe/,
    /Erstellt am/,
    /Ablaufdatum/,
    'Aktionen',
  ]);
  await expect(rows(page)).toHaveCount(20);
  await expect(page.getByTestId('shorts-total')).toHaveText('300 Einträge');
  await expect(page.getByLabel('Einträge pro Seite')).toHaveValue('20');
  await expect(page.getByLabel('Einträge pro Seite').locator('option')).toHaveText([
    '10',
    '20',
    '35',
    '50',
    '100',
    '250',
  ]);
  // 15 pages: 1 2 3 … 15 with the current page marked.
  const bar = page.getByRole('navigation', { name: 'Seitennavigation' });
  await expect(bar.getByText(/^\d+$/)).toHaveText(['1', '2', '3', '15']);
  await expect(bar.locator('[aria-current="page"]')).toHaveText('1');
  await expect(table.locator('thead th[aria-sort]')).toHaveAttribute('aria-sort', 'descending');
  await expect(table.locator('thead th[aria-sort]')).toContainText('Erstellt am');
  // Never-expiring shorts say so.
  await expect(rows(page).first().locator('[data-column="expireAt"]')).toHaveText('Nie');
});

test('sorting by column headers goes to the server', async ({ page }) => {
  await page.goto('/shorts');
  await expect(rows(page)).toHaveCount(20);

  const asc = page.waitForRequest((r) => new URL(r.url()).searchParams.get('sort') === 'code,asc');
  await page.getByTestId('sort-code').click();
  await asc;
  await expect
    .poll(() => codes(page))
    .toEqual(Array.from({ length: 20 }, (_, k) => `tab-${pad(k + 1)}`));
  await expect(page.locator('thead th[aria-sort="ascending"]')).toContainText('Code');

  const desc = page.waitForRequest(
    (r) => new URL(r.url()).searchParams.get('sort') === 'code,desc',
  );
  await page.getByTestId('sort-code').click();
  await desc;
  await expect
    .poll(() => codes(page))
    .toEqual(Array.from({ length: 20 }, (_, k) => `tab-${pad(COUNT - k)}`));

  // Page 2 of the server's order (not the current page re-sorted).
  await page.getByRole('button', { name: 'Seite 2' }).click();
  await expect
    .poll(() => codes(page))
    .toEqual(Array.from({ length: 20 }, (_, k) => `tab-${pad(COUNT - 20 - k)}`));

  // Danger: show the hidden column, dangerous first (in place of two others: the table fits).
  await page.getByRole('button', { name: 'Spalten' }).click();
  await page.getByLabel('Url', { exact: true }).uncheck();
  await page.getByLabel('Erstellt am', { exact: true }).uncheck();
  await page.getByLabel('Bedrohlichkeit', { exact: true }).check();
  await page.keyboard.press('Escape');
  await page.getByTestId('sort-dangers').click();
  await page.getByTestId('sort-dangers').click();
  await expect(page.locator('thead th[aria-sort="descending"]')).toContainText('Bedrohlichkeit');
  await expect(rows(page).first()).toHaveAttribute('data-code', 'tab-005');
  await expect(rows(page).first().locator('[data-column="dangers"]')).toHaveText('Gefährlich');
  await expect(rows(page).nth(1).locator('[data-column="dangers"]')).toHaveText('Ungefährlich');
});

test('search is debounced and filtered on the server; back to page 1', async ({ page }) => {
  await page.goto('/shorts');
  await expect(rows(page)).toHaveCount(20);
  await page.getByRole('button', { name: 'Seite 3' }).click();
  await expect(page.getByTestId('page-3')).toHaveAttribute('aria-current', 'page');

  const searches: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname === '/api/code' && u.searchParams.has('search'))
      searches.push(`${u.searchParams.get('search')}@${u.searchParams.get('page')}`);
  });
  const done = page.waitForResponse(
    (r) => new URL(r.url()).searchParams.get('search') === 'seite/12',
  );
  await page.getByLabel('Suche').pressSequentially('seite/12', { delay: 30 });
  await done;
  // One request for the whole word (typed faster than the 500 ms debounce), none per keystroke.
  expect(searches).toEqual(['seite/12@0']);
  await expect(page.getByTestId('shorts-total')).toHaveText('10 Einträge'); // seite/120 … seite/129
  await expect(rows(page)).toHaveCount(10);
  // 10 entries: the page-size selector shows (≥ 10), the page bar does not (one page).
  await expect(page.getByLabel('Einträge pro Seite')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Seitennavigation' })).toHaveCount(0);

  await page.getByLabel('Suche').fill('Eintrag 123');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toHaveAttribute('data-code', 'tab-123');
  await expect(page.getByLabel('Einträge pro Seite')).toHaveCount(0);

  await page.getByLabel('Suche').fill('gibt es nicht');
  await expect(page.getByText('Es sind noch keine Einträge vorhanden.')).toBeVisible();
});

test('page size and page jump', async ({ page }) => {
  await page.goto('/shorts');
  await page.getByTestId('sort-code').click();
  await expect(rows(page).first()).toHaveAttribute('data-code', 'tab-001');

  await page.getByLabel('Einträge pro Seite').selectOption('250');
  await expect(rows(page)).toHaveCount(250);
  const bar = page.getByRole('navigation', { name: 'Seitennavigation' });
  await expect(bar.getByText(/^\d+$/)).toHaveText(['1', '2']);
  await bar.getByRole('button', { name: 'Nächste Seite' }).click();
  await expect(rows(page)).toHaveCount(50);
  await expect(rows(page).last()).toHaveAttribute('data-code', 'tab-300');

  await page.getByLabel('Einträge pro Seite').selectOption('10');
  await expect(rows(page)).toHaveCount(10);
  await expect(rows(page).first()).toHaveAttribute('data-code', 'tab-001');
  await expect(bar.getByText(/^\d+$/)).toHaveText(['1', '2', '3', '30']);

  const jump = page.getByLabel('Gehe zu Seite');
  for (const bad of ['31', '0']) {
    await jump.fill(bad);
    await page.getByRole('button', { name: 'Los' }).click();
    await expect(page.getByText('Bitte eine Seite von 1 bis 30 eingeben.')).toBeVisible();
    await expect(rows(page).first()).toHaveAttribute('data-code', 'tab-001');
  }
  await jump.fill('17');
  await page.getByRole('button', { name: 'Los' }).click();
  await expect(page.getByText('Bitte eine Seite von 1 bis 30 eingeben.')).toHaveCount(0);
  await expect
    .poll(() => codes(page))
    .toEqual(Array.from({ length: 10 }, (_, k) => `tab-${pad(161 + k)}`));
  // Two siblings on each side of page 17.
  await expect(bar.getByText(/^\d+$/)).toHaveText(['1', '15', '16', '17', '18', '19', '30']);
  await expect(bar.locator('[aria-current="page"]')).toHaveText('17');

  await jump.fill('30');
  await jump.press('Enter');
  await expect
    .poll(() => codes(page))
    .toEqual(Array.from({ length: 10 }, (_, k) => `tab-${pad(291 + k)}`));
  await expect(bar.getByRole('button', { name: 'Nächste Seite' })).toHaveCount(0); // disabled: no button
});

test('column filter: hidden by default, shown on demand, the last column stays', async ({
  page,
}) => {
  await page.goto('/shorts');
  await expect(rows(page)).toHaveCount(20);
  const header = (name: string) => page.locator('thead th').filter({ hasText: name });
  await expect(header('ID')).toHaveCount(0);
  await expect(header('Nutzungen')).toHaveCount(0);
  await expect(header('Max. Aufrufe')).toHaveCount(0);
  await expect(header('Bedrohlichkeit')).toHaveCount(0);

  await page.getByRole('button', { name: 'Spalten' }).click();
  await expect(page.getByLabel('ID', { exact: true })).not.toBeChecked();
  // Room for the long ids in the table (with every column it turns into cards, see below).
  for (const name of ['Name', 'Url', 'Erstellt am'])
    await page.getByLabel(name, { exact: true }).uncheck();
  await page.getByLabel('ID', { exact: true }).check();
  await page.getByLabel('Max. Aufrufe', { exact: true }).check();
  await expect(header('ID')).toHaveCount(1);
  await expect(header('Max. Aufrufe')).toHaveCount(1);
  await expect(rows(page).first().locator('[data-column="id"]')).toHaveText(/^[0-9a-f-]{36}$/);

  for (const name of ['ID', 'Name', 'Code', 'Url', 'Aufrufe', 'Max. Aufrufe', 'Erstellt am'])
    await page.getByLabel(name, { exact: true }).uncheck();
  await expect(page.locator('thead th')).toHaveCount(3); // selection, Ablaufdatum, actions
  const last = page.getByLabel('Ablaufdatum', { exact: true });
  await expect(last).toBeChecked();
  await expect(last).toBeDisabled();
  await page.getByLabel('Code', { exact: true }).check();
  await expect(last).toBeEnabled();
  await expect(page.locator('thead th')).toHaveText([/^$/, /Code/, /Ablaufdatum/, 'Aktionen']);
});

test('max uses, a long url on one line with the full url on hover', async ({ page }) => {
  await page.goto('/shorts');
  await page.getByRole('button', { name: 'Spalten' }).click();
  await page.getByLabel('Erstellt am', { exact: true }).uncheck();
  await page.getByLabel('Max. Aufrufe', { exact: true }).check();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('shorts-table')).toBeVisible();
  await page.getByLabel('Suche').fill('tab-050');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first().locator('[data-column="maxUses"]')).toHaveText('50');
  await page.getByLabel('Suche').fill('tab-049');
  await expect(rows(page).first()).toHaveAttribute('data-code', 'tab-049');
  await expect(rows(page).first().locator('[data-column="maxUses"]')).toHaveText('Unbegrenzt');

  await page.getByLabel('Suche').fill('tab-007');
  await expect(rows(page)).toHaveCount(1);
  const cell = rows(page).first().locator('[data-column="url"]');
  // One line: host and path, cut with an ellipsis by CSS; the full url on hover (title).
  await expect(cell).toHaveText(LONG_URL.replace(/^https?:\/\//, ''));
  await expect(cell.locator('[title]')).toHaveAttribute('title', LONG_URL);
  await expect(cell.locator('[title]')).toHaveCSS('text-overflow', 'ellipsis');
  await expect(cell.locator('[title]')).toHaveCSS('white-space', 'nowrap');
  await page.getByLabel('Suche').fill('tab-008');
  await expect(rows(page).first().locator('[data-column="url"]')).toHaveText(
    `${TARGET_HOST}/seite/008`,
  );
});

for (const scheme of ['light', 'dark'] as const) {
  test(`axe (${scheme}): /shorts with every column (as cards: the table no longer fits), and its delete dialog, have no serious or critical violations`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/shorts');
    await expect(rows(page)).toHaveCount(20);
    await expectNoSeriousViolations(page);
    await page.getByRole('button', { name: 'Spalten' }).click();
    for (const name of ['ID', 'Nutzungen', 'Max. Aufrufe', 'Bedrohlichkeit'])
      await page.getByLabel(name, { exact: true }).check();
    await page.keyboard.press('Escape');
    const cards = page.getByTestId('short-card');
    await expect(cards).toHaveCount(20);
    // The chosen columns show on the cards.
    await expect(cards.first().locator('[data-column="id"]')).toHaveText(/^[0-9a-f-]{36}$/);
    await expect(cards.first().locator('[data-column="dangers"]')).toHaveText(/gefährlich/i);
    const first = (await cards.first().getAttribute('data-code'))!;
    await page.getByLabel(`Short ${first} auswählen`).check();
    await expect(page.getByRole('button', { name: 'Ausgewählte löschen (1)' })).toBeVisible();
    await page.screenshot({
      path: `test-results/screenshots/shorts-${scheme}.png`,
      fullPage: true,
    });
    let violations = await seriousA11yViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
    await page.getByRole('button', { name: `Short ${first} löschen` }).click();
    await expect(page.getByRole('dialog', { name: 'Löschen bestätigen' })).toBeVisible();
    violations = await seriousA11yViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
  });
}

test('load error shows the status and the message', async ({ page }) => {
  const list = (u: URL) => u.pathname === '/api/code';
  await page.route(list, (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/problem+json',
      body: JSON.stringify({
        type: 'about:blank',
        title: 'Service Unavailable',
        status: 503,
        detail: 'Datenbank weg',
        instance: '/api/code',
      }),
    }),
  );
  await page.goto('/shorts');
  await expect(page.getByTestId('shorts-error')).toContainText('Status 503: Datenbank weg');
  await page.unroute(list);
  await page.route(list, (route) =>
    route.fulfill({ status: 500, contentType: 'text/plain', body: '' }),
  );
  await page.reload();
  await expect(page.getByTestId('shorts-error')).toContainText('Unbekannter Fehler');
});

test('a user without shorts sees the empty state; a few shorts show no page size and no page bar', async ({
  page,
  context,
}) => {
  await logIn(page, 'leer-tabelle');
  await page.goto('/shorts');
  await expect(page.getByRole('heading', { name: 'Du hast noch keine Shorts' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ersten Short erstellen' })).toHaveAttribute(
    'href',
    '/',
  );
  await seed(
    context.request,
    Array.from({ length: 9 }, (_, i) => ({ url: `https://${TARGET_HOST}/wenig/${i}` })),
  );
  await page.reload();
  await expect(rows(page)).toHaveCount(9);
  await expect(page.getByLabel('Einträge pro Seite')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Seitennavigation' })).toHaveCount(0);
  await seed(context.request, [{ url: `https://${TARGET_HOST}/wenig/9` }]);
  await page.reload();
  await expect(rows(page)).toHaveCount(10);
  await expect(page.getByLabel('Einträge pro Seite')).toBeVisible();
});

test('single delete with confirmation and toast; a failing delete says so', async ({
  page,
  context,
}) => {
  await page.goto('/shorts');
  await page.getByTestId('sort-code').click();
  await page.getByTestId('sort-code').click();
  await expect(rows(page).first()).toHaveAttribute('data-code', 'tab-300');

  // Cancel keeps it.
  await page.getByRole('button', { name: 'Short tab-300 löschen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Löschen bestätigen' });
  await expect(dialog).toContainText('Möchtest du den Short tab-300 wirklich löschen?');
  await dialog.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(dialog).toHaveCount(0);
  expect(await ownTotal(context.request, 'tab-300')).toBe(1);

  await page.getByRole('button', { name: 'Short tab-300 löschen' }).click();
  await expect(dialog).toContainText('Möchtest du den Short tab-300 wirklich löschen?');
  await dialog.getByRole('button', { name: 'Endgültig löschen' }).click();
  await expect(page.getByText('Short erfolgreich gelöscht', { exact: true })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('shorts-total')).toHaveText('299 Einträge');
  await expect(rows(page).first()).toHaveAttribute('data-code', 'tab-299');
  expect(await ownTotal(context.request, 'tab-300')).toBe(0);

  await page.route(
    (u) => u.pathname.startsWith('/api/code/'),
    (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({
            status: 500,
            contentType: 'application/problem+json',
            body: '{"status":500,"title":"Internal Server Error","detail":"x"}',
          })
        : route.continue(),
  );
  await page.getByRole('button', { name: 'Short tab-299 löschen' }).click();
  await expect(dialog).toContainText('Möchtest du den Short tab-299 wirklich löschen?');
  const refused = page.waitForResponse(
    (r) => r.request().method() === 'DELETE' && new URL(r.url()).pathname.startsWith('/api/code/'),
  );
  await dialog.getByRole('button', { name: 'Endgültig löschen' }).click();
  expect((await refused).status()).toBe(500);
  await expect(page.getByText('Fehler beim Löschen der Short', { exact: true })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('shorts-total')).toHaveText('299 Einträge');
});

test('bulk delete of the selected shorts: one request, all or nothing', async ({
  page,
  context,
}) => {
  await page.goto('/shorts');
  await page.getByLabel('Suche').fill('seite/29');
  await expect(rows(page)).toHaveCount(10); // 290–299 (300 is gone)
  await page.getByLabel('Short tab-291 auswählen').check();
  await page.getByLabel('Short tab-292 auswählen').check();
  await expect(page.getByTestId('bulk-count')).toHaveText('2 Shorts ausgewählt');
  await page.getByRole('button', { name: 'Ausgewählte löschen (2)' }).click();
  const dialog = page.getByRole('dialog', { name: '2 Shorts löschen?' });
  await expect(dialog).toContainText('Die 2 ausgewählten Shorts werden endgültig gelöscht');
  const bulk = page.waitForRequest(
    (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/code/bulk',
  );
  await dialog.getByRole('button', { name: 'Endgültig löschen' }).click();
  expect(((await bulk).postDataJSON() as { ids: string[] }).ids).toHaveLength(2);
  await expect(page.getByText('Shorts erfolgreich gelöscht', { exact: true })).toBeVisible();
  await expect(rows(page)).toHaveCount(8);
  await expect(page.getByRole('row', { name: /tab-291/ })).toHaveCount(0);
  expect(await ownTotal(context.request)).toBe(297);

  // Select all on the page; the server fails the bulk → the failure toast, nothing is gone.
  await page.route(
    (u) => u.pathname === '/api/code/bulk',
    (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/problem+json',
        body: '{"status":500}',
      }),
  );
  await page.getByLabel('Alle Shorts dieser Seite auswählen').check();
  await page.getByRole('button', { name: 'Ausgewählte löschen (8)' }).click();
  await page
    .getByRole('dialog', { name: '8 Shorts löschen?' })
    .getByRole('button', { name: 'Endgültig löschen' })
    .click();
  await expect(page.getByText('Fehler beim Löschen der Shorts', { exact: true })).toBeVisible();
  await expect(rows(page)).toHaveCount(8);
  expect(await ownTotal(context.request)).toBe(297);
});
