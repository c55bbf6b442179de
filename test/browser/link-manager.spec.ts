import { expect, test, type Page } from '@playwright/test';
import {
  BASE,
  beforeEachRejectAll,
  createOwn,
  devLogin,
  expectNoSeriousViolations,
  logIn,
  markDangerous,
  markExpired,
  TARGET_HOST,
} from './support';

// Issue 20, items 3 and 6: "Deine Shorts" as a link manager (new short, copy, QR, badges, one-line
// urls, the empty state, cards on phones) and editing safely (a changed code asks first, server
// errors at their fields).

/** Three shorts: a plain one, one with a password, one dangerous with a used-up limit. */
async function seedThree(page: Page, user: string): Promise<[string, string, string]> {
  const plain = await createOwn(page, { url: `https://${TARGET_HOST}/${user}/plain` });
  const locked = await createOwn(page, {
    url: `https://${TARGET_HOST}/${user}/locked`,
    password: 'geheim123',
  });
  const bad = await createOwn(page, {
    url: `https://${TARGET_HOST}/${user}/${'lang/'.repeat(30)}ende`,
    name: 'Gemeldet',
    maxUses: 1,
  });
  markDangerous(bad);
  return [plain, locked, bad];
}

beforeEachRejectAll();

test('desktop: new short, badges, one-line urls, copy and QR per row', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
  await logIn(page, 'verwalter');
  const [plain, locked, bad] = await seedThree(page, 'verwalter');
  await page.goto('/shorts');

  await expect(page.getByTestId('short-cards')).toHaveCount(0);
  const row = (code: string) => page.locator(`[data-testid="short-row"][data-code="${code}"]`);
  await expect(row(plain).getByTestId('short-badges')).toHaveCount(0);
  await expect(row(locked).getByTestId('short-badges')).toHaveText('Passwort');
  await expect(row(bad).getByTestId('short-badges')).toHaveText('Gefährlich');

  // The url on one line: host and path, cut by CSS, the full url on hover.
  const url = row(bad).locator('[data-column="url"] [title]');
  await expect(url).toHaveAttribute('title', new RegExp(`^https://${TARGET_HOST}/verwalter/`));
  await expect(url).toHaveCSS('white-space', 'nowrap');
  const box = await url.boundingBox();
  expect(box!.height).toBeLessThan(40);

  await row(plain)
    .getByRole('button', { name: `Link von ${plain} kopieren` })
    .click();
  await expect(page.getByText('Link wurde kopiert.')).toBeVisible();
  const copied = await page.evaluate(
    () => (globalThis as any).navigator.clipboard.readText() as Promise<string>,
  );
  expect(copied).toBe(`${BASE}/s/${plain}`);

  await row(locked)
    .getByRole('button', { name: `QR-Code von ${locked} anzeigen` })
    .click();
  const qr = page.getByRole('dialog', { name: 'QR-Code' });
  await expect(qr).toBeVisible();
  await expect(qr.getByTestId('qr-image')).toHaveAttribute('src', `/api/code/${locked}/qr.svg`);
  await expect(qr).toContainText(`${BASE}/s/${locked}`);
  await qr.getByRole('button', { name: 'Schließen' }).first().click();
  await expect(qr).toBeHidden();

  await page.getByRole('link', { name: 'Neuer Short' }).click();
  await expect(page).toHaveURL(`${BASE}/`);
});

test('the expired badge (used up: unit-tested; uses need a real follow)', async ({ page }) => {
  await logIn(page, 'ablauf');
  const code = await createOwn(page, {
    url: `https://${TARGET_HOST}/ablauf`,
    maxUses: 1,
    expireAt: new Date(Date.now() + 86400_000).toISOString(),
  });
  markExpired(code);
  await page.goto('/shorts');
  const row = page.locator(`[data-testid="short-row"][data-code="${code}"]`);
  await expect(row.getByTestId('short-badges')).toHaveText('Abgelaufen');
});

test('the empty state leads to the first short', async ({ page }) => {
  await logIn(page, 'neuling-liste');
  await page.goto('/shorts');
  await expect(page.getByRole('heading', { name: 'Du hast noch keine Shorts' })).toBeVisible();
  await page.getByRole('link', { name: 'Ersten Short erstellen' }).click();
  await expect(page).toHaveURL(`${BASE}/`);
  await expect(page.getByLabel('URL', { exact: true })).toBeVisible();
});

test.describe('mobile 390×844', () => {
  test('a card per short with its badges and actions, no table', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
    await logIn(page, 'handy-liste');
    const [plain, locked, bad] = await seedThree(page, 'handy-liste');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/shorts');
    await expect(page.getByTestId('shorts-table')).toHaveCount(0);
    const card = (code: string) => page.locator(`[data-testid="short-card"][data-code="${code}"]`);
    await expect(page.getByTestId('short-card')).toHaveCount(3);
    await expect(card(bad)).toContainText('Gemeldet');
    await expect(card(bad).getByTestId('short-badges')).toHaveText('Gefährlich');
    await expect(card(locked).getByTestId('short-badges')).toHaveText('Passwort');
    // Nothing wider than the screen.
    const width = await page.evaluate(
      () => (globalThis as any).document.documentElement.scrollWidth as number,
    );
    expect(width).toBeLessThanOrEqual(390);

    await card(plain)
      .getByRole('button', { name: `Link von ${plain} kopieren` })
      .click();
    await expect(page.getByText('Link wurde kopiert.')).toBeVisible();
    await card(plain)
      .getByRole('button', { name: `QR-Code von ${plain} anzeigen` })
      .click();
    await expect(page.getByRole('dialog', { name: 'QR-Code' })).toBeVisible();
    await page.keyboard.press('Escape');
    await card(plain)
      .getByRole('button', { name: `${plain} bearbeiten` })
      .click();
    await expect(page.getByRole('dialog', { name: 'Short bearbeiten' })).toBeVisible();
    await page.keyboard.press('Escape');
    await card(plain)
      .getByRole('button', { name: `Short ${plain} löschen` })
      .click();
    await page.getByRole('button', { name: 'Endgültig löschen' }).click();
    await expect(page.getByTestId('short-card')).toHaveCount(2);
  });
});

test('a changed code asks first; a taken code shows its error at the field', async ({ page }) => {
  await logIn(page, 'umbenenner');
  const code = await createOwn(page, { url: `https://${TARGET_HOST}/umbenennen` });
  const other = await createOwn(page, { url: `https://${TARGET_HOST}/anderer` });
  await page.goto('/shorts');
  await page.getByRole('button', { name: `${code} bearbeiten` }).click();
  const dialog = page.getByRole('dialog', { name: 'Short bearbeiten' });

  await dialog.getByLabel('Code').fill(other);
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  const warning = dialog.getByTestId('code-change-warning');
  await expect(warning).toContainText('Code wirklich ändern?');
  await expect(warning).toContainText(`von ${code} auf ${other}`);
  await expect(warning).toContainText('funktionieren danach nicht mehr');
  // Back: nothing was sent, the form is as it was.
  await dialog.getByRole('button', { name: 'Zurück' }).click();
  await expect(warning).toBeHidden();
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await dialog.getByRole('button', { name: 'Ja, Code ändern' }).click();
  await expect(dialog.getByTestId('error-code')).toHaveText('Der Code ist bereits vergeben');
  await expect(dialog.getByLabel('Code')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Bitte prüfe die markierten Felder.')).toBeVisible();

  // Typing clears the field's error; a free code saves after the confirmation.
  await dialog.getByLabel('Code').fill(`${code}-neu`);
  await expect(dialog.getByTestId('error-code')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await dialog.getByRole('button', { name: 'Ja, Code ändern' }).click();
  await expect(page.getByText('Der Short wurde gespeichert')).toBeVisible();
  await expect(page.locator(`[data-code="${code}-neu"]`)).toBeVisible();

  // Without a changed code there is nothing to confirm.
  await page.getByRole('button', { name: `${code}-neu bearbeiten` }).click();
  await dialog.getByLabel('Name').fill('Nur der Name');
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(dialog).toBeHidden();
});

for (const scheme of ['light', 'dark'] as const) {
  test(`axe (${scheme}): the list with badges, the cards, the code warning and a field error`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await logIn(page, `axe-verwalter-${scheme}`);
    const [plain, locked] = await seedThree(page, `axe-verwalter-${scheme}`);
    await page.goto('/shorts');
    await expect(page.getByTestId('short-row')).toHaveCount(3);
    await expectNoSeriousViolations(page);

    await page.getByRole('button', { name: `${plain} bearbeiten` }).click();
    const dialog = page.getByRole('dialog', { name: 'Short bearbeiten' });
    await dialog.getByLabel('Code').fill(locked);
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(dialog.getByTestId('code-change-warning')).toBeVisible();
    await expectNoSeriousViolations(page);
    await dialog.getByRole('button', { name: 'Ja, Code ändern' }).click();
    await expect(dialog.getByTestId('error-code')).toBeVisible();
    await expectNoSeriousViolations(page);
    await page.keyboard.press('Escape');

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByTestId('short-card')).toHaveCount(3);
    await expectNoSeriousViolations(page);

    await page.setViewportSize({ width: 1280, height: 800 });
    await devLogin(page, `axe-leer-${scheme}`, '/shorts');
    await expect(page.getByRole('heading', { name: 'Du hast noch keine Shorts' })).toBeVisible();
    await expectNoSeriousViolations(page);
  });
}
