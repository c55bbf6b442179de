import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  BASE,
  beforeEachRejectAll,
  createOwn,
  expectNoSeriousViolations,
  logIn,
  navigateFrom,
  PERSON_UA,
  TARGET_HOST,
  userClient,
} from './support';

// Owners manage their links: the edit dialog, the QR code dialog, their short's reports, export
// and import on /shorts.

beforeEachRejectAll();

test('edit a short in the dialog on the info page, then follow it to the new target', async ({
  page,
}) => {
  await logIn(page, 'bearbeiter');
  const code = await createOwn(page, { url: `https://${TARGET_HOST}/alt`, name: 'Vorher' });
  await page.goto(`/s/${code}/info`);
  await page.getByRole('button', { name: 'Bearbeiten' }).click();
  const dialog = page.getByRole('dialog', { name: 'Short bearbeiten' });
  await expect(dialog.getByLabel('URL')).toHaveValue(`https://${TARGET_HOST}/alt`);
  await expect(dialog.getByLabel('Name')).toHaveValue('Vorher');
  await dialog.getByLabel('URL').fill(`https://${TARGET_HOST}/neu`);
  await dialog.getByLabel('Name').fill('Nachher');
  await dialog.getByLabel('Ablaufdatum').fill('in 3 Tagen');
  await expect(dialog.getByText(/^Verstanden als: /)).toBeVisible();
  await dialog.getByLabel('Max. Aufrufe').fill('9');
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText('Der Short wurde gespeichert')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('textbox', { name: 'Url' })).toHaveValue(
    `https://${TARGET_HOST}/neu`,
  );
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('Nachher');
  await expect(page.getByRole('textbox', { name: 'Max. Aufrufe' })).toHaveValue('9');

  // An error keeps the dialog open with a German toast.
  const other = await createOwn(page, { url: `https://${TARGET_HOST}/x` });
  await page.getByRole('button', { name: 'Bearbeiten' }).click();
  await dialog.getByLabel('Code').fill(other);
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await dialog.getByRole('button', { name: 'Ja, Code ändern' }).click();
  await expect(dialog.getByText('Der Code ist bereits vergeben')).toBeVisible();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Abbrechen' }).click();

  // A navigation from the page (routed to the stubbed target), as a click on the link would be,
  // from a person's browser: headless Chromium says "HeadlessChrome", a bot (isbot), and a bot
  // gets a short with a limit as a preview page, not the target.
  await page.setExtraHTTPHeaders({ 'user-agent': PERSON_UA });
  await navigateFrom(page, `/s/${code}`);
  await expect(page).toHaveURL(`https://${TARGET_HOST}/neu`);
  await expect(page.getByRole('heading', { name: 'Zielseite /neu' })).toBeVisible();
});

test('edit from a row of /shorts: a new code shows in the table; clearing the limit', async ({
  page,
}) => {
  await logIn(page, 'zeilenbearbeiter');
  const code = await createOwn(page, { url: `https://${TARGET_HOST}/zeile`, maxUses: 3 });
  await page.goto('/shorts');
  await page.getByRole('button', { name: `${code} bearbeiten` }).click();
  const dialog = page.getByRole('dialog', { name: 'Short bearbeiten' });
  await expect(dialog.getByLabel('Max. Aufrufe')).toHaveValue('3');
  await dialog.getByRole('button', { name: 'Begrenzung entfernen' }).click();
  await expect(dialog.getByLabel('Max. Aufrufe')).toHaveValue('');
  await dialog.getByLabel('Code').fill(`${code}-neu`);
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await dialog.getByRole('button', { name: 'Ja, Code ändern' }).click();
  await expect(page.getByText('Der Short wurde gespeichert')).toBeVisible();
  await expect(page.locator(`[data-code="${code}-neu"]`)).toBeVisible();
  await expect(page.locator(`[data-code="${code}"]`)).toHaveCount(0);
  const info = await page.request.get(`${BASE}/api/code/${code}-neu?redirect=false`);
  expect(((await info.json()) as { maxUses: number | null }).maxUses).toBeNull();
});

test("uses read as 'Nutzungen' (what the limit counts), apart from visits ('Aufrufe')", async ({
  page,
}) => {
  await logIn(page, 'nutzerin');
  const code = await createOwn(page, { url: `https://${TARGET_HOST}/nutzung`, maxUses: 2 });
  const row = page.locator(`[data-code="${code}"]`);
  const showUses = async () => {
    await page.goto('/shorts');
    await page.getByRole('button', { name: 'Spalten' }).click();
    // In place of 'Erstellt am': the table keeps fitting at 1280 px (else cards).
    await page.getByLabel('Erstellt am', { exact: true }).uncheck();
    await page.getByLabel('Nutzungen', { exact: true }).check();
    await page.keyboard.press('Escape');
  };
  await showUses();
  await expect(page.locator('thead th').filter({ hasText: /^Nutzungen/ })).toHaveCount(1);
  await expect(page.locator('thead th').filter({ hasText: /^Aufrufe/ })).toHaveCount(1);
  await expect(row.locator('[data-column="uses"]')).toHaveText('0 / 2');
  await expect(row.locator('[data-column="visits"]')).toHaveText('0');

  // One follow from a person's browser (headless Chromium counts as a bot, and a bot claims no use).
  await page.setExtraHTTPHeaders({ 'user-agent': PERSON_UA });
  await navigateFrom(page, `/s/${code}`);
  await expect(page.getByRole('heading', { name: 'Zielseite /nutzung' })).toBeVisible();

  // The visit reaches the statistics in a batch; then the table shows both, each under its name.
  await expect
    .poll(
      async () => {
        const list = await page.request.get(`${BASE}/api/code`, { params: { search: code } });
        return ((await list.json()) as { content: { visits: number }[] }).content[0]?.visits;
      },
      { timeout: 15_000 },
    )
    .toBe(1);
  await showUses();
  await expect(row.locator('[data-column="uses"]')).toHaveText('1 / 2');
  await expect(row.locator('[data-column="visits"]')).toHaveText('1');
});

for (const scheme of ['light', 'dark'] as const) {
  test(`axe (${scheme}): the edit and the QR code dialogs`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await logIn(page, `axe-${scheme}`);
    const code = await createOwn(page, { url: `https://${TARGET_HOST}/axe`, password: 'geheim' });
    await page.goto(`/s/${code}/info`);
    await page.getByRole('button', { name: 'Bearbeiten' }).click();
    await expect(page.getByRole('dialog', { name: 'Short bearbeiten' })).toBeVisible();
    await expect(page.getByLabel('Passwortschutz entfernen')).toBeVisible();
    await expectNoSeriousViolations(page);
    await page.getByRole('button', { name: 'Abbrechen' }).click();
    await page.getByRole('button', { name: 'QR-Code' }).click();
    await expect(page.getByRole('dialog', { name: 'QR-Code' })).toBeVisible();
    await expectNoSeriousViolations(page);
  });
}

test('the QR code dialog shows the code and downloads it as SVG and PNG', async ({ page }) => {
  await logIn(page, 'qr-nutzer');
  const code = await createOwn(page, { url: `https://${TARGET_HOST}/qr` });
  await page.goto(`/s/${code}/info?show_created=true`);
  // From the created banner as well as from the actions.
  await page.getByTestId('created-banner').getByRole('button', { name: 'QR-Code' }).click();
  const dialog = page.getByRole('dialog', { name: 'QR-Code' });
  const link = `${BASE}/s/${code}`;
  const img = dialog.getByRole('img', { name: `QR-Code für ${link}` });
  await expect(img).toBeVisible();
  await expect
    .poll(() => img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth))
    .toBeGreaterThan(0);
  await expect(dialog.getByText(link)).toBeVisible();
  const [svg] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('link', { name: 'Als SVG herunterladen' }).click(),
  ]);
  expect(svg.suggestedFilename()).toBe(`${code}.svg`);
  expect(readFileSync(await svg.path(), 'utf8')).toMatch(/^<svg/);
  const [png] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('link', { name: 'Als PNG herunterladen' }).click(),
  ]);
  expect(png.suggestedFilename()).toBe(`${code}.png`);
  expect(
    readFileSync(await png.path())
      .subarray(1, 4)
      .toString(),
  ).toBe('PNG');
});

test('the owner sees the reports of their short (as text), with the statistics flag on (the default)', async ({
  page,
  playwright,
}) => {
  await logIn(page, 'gemeldeter');
  const code = await createOwn(page, { url: `https://${TARGET_HOST}/gemeldet` });
  await page.goto(`/s/${code}/info`);
  await page.getByRole('tab', { name: 'Beschwerden' }).click();
  await expect(page.getByTestId('complaints-body')).toHaveText(
    'Zu diesem Short gibt es keine Beschwerden.',
  );
  const reporter = await userClient(playwright, 'melder');
  const sent = await reporter.post(`/api/code/${code}/report`, {
    data: { reason: 'SPAM', description: '<img src=x onerror=alert(1)> Werbung' },
  });
  expect(sent.status()).toBe(200);
  await reporter.dispose();
  await page.reload();
  // The open tab is in the address: the reload shows it again.
  await expect(page).toHaveURL(/[?&]tab=complaints/);
  await expect(page.getByRole('tab', { name: 'Beschwerden' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  const table = page.getByTestId('complaints-table');
  await expect(table.getByRole('cell', { name: 'Spam' })).toBeVisible();
  await expect(table.getByText('<img src=x onerror=alert(1)> Werbung')).toBeVisible();
  await expect(table.getByText('Offen')).toBeVisible();
  await expect(table.locator('img')).toHaveCount(0);
  await expect(table).not.toContainText('melder');
});

test('export as CSV and JSON from /shorts', async ({ page }) => {
  await logIn(page, 'exporteur');
  await createOwn(page, {
    url: `https://${TARGET_HOST}/export`,
    code: 'export-mich',
    name: '=1+1',
  });
  await page.goto('/shorts');
  await expect(page.locator('[data-code="export-mich"]')).toBeVisible();
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Exportieren (CSV)' }).click(),
  ]);
  const text = readFileSync(await csv.path(), 'utf8');
  expect(text.split('\r\n')[0]).toBe(
    'id,domain,code,name,url,hasPassword,maxUses,uses,visits,createdAt,expireAt,expiredUrl,rules,team,tags,preview,qrStyle',
  );
  expect(text).toContain(`export-mich,'=1+1,https://${TARGET_HOST}/export`);
  const [json] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Exportieren (JSON)' }).click(),
  ]);
  const list = JSON.parse(readFileSync(await json.path(), 'utf8')) as Array<{ code: string }>;
  expect(list.map((s) => s.code)).toEqual(['export-mich']);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`import a Shlink CSV with one bad row and see the result (${scheme}, axe)`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await logIn(page, `importeur-${scheme}`);
    // Each run imports the sample's codes under its own prefix (codes are unique service-wide).
    const sample = readFileSync(
      join(__dirname, '..', 'fixtures', 'import', 'shlink.csv'),
      'utf8',
    ).replaceAll(',shl-', `,${scheme}-shl-`);
    await page.goto('/shorts');
    await page.getByRole('button', { name: 'Importieren' }).click();
    const dialog = page.getByRole('dialog', { name: 'Shorts importieren' });
    await dialog.getByLabel('CSV-Datei').setInputFiles({
      name: 'shlink.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(sample),
    });
    await expect(dialog.getByText('3 Zeilen erkannt')).toBeVisible();
    const mapping = dialog.getByTestId('import-mapping');
    await expect(mapping.getByRole('row', { name: 'shortCode Code' })).toBeVisible();
    await expect(mapping.getByRole('row', { name: 'longUrl URL' })).toBeVisible();
    // Shlink's tags column is read as the tags.
    await expect(mapping.getByRole('row', { name: 'tags Tags' })).toBeVisible();
    await expect(dialog.getByTestId('import-preview').getByRole('row')).toHaveCount(4);
    await expectNoSeriousViolations(page);
    await dialog.getByRole('button', { name: 'Import starten' }).click();
    await expect(dialog.getByTestId('import-result')).toHaveText(
      '2 Shorts erstellt, 1 Zeile übersprungen.',
    );
    const skipped = dialog.getByTestId('import-skipped');
    await expect(skipped.getByRole('row')).toHaveCount(2);
    await expect(skipped.getByRole('row').nth(1)).toHaveText(
      `3${scheme}-shl-badDie URL ist ungültig`,
    );
    await expectNoSeriousViolations(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Übersprungene Zeilen als CSV herunterladen' }).click(),
    ]);
    expect(readFileSync(await download.path(), 'utf8')).toBe(
      `Zeile,Code,Grund\r\n3,${scheme}-shl-bad,Die URL ist ungültig\r\n`,
    );
    await dialog.getByRole('button', { name: 'Schließen' }).first().click();
    await expect(page.locator(`[data-code="${scheme}-shl-docs"]`)).toBeVisible();
    await expect(page.locator(`[data-code="${scheme}-shl-multi"]`)).toBeVisible();
  });
}
