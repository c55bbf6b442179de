import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  BASE,
  beforeEachRejectAll,
  createOwn,
  devLogin,
  expectNoSeriousViolations,
  TARGET_HOST,
} from './support';

// Tags (CONTRACT "Tags and bulk edits"): a short tagged in the create form, the list filtered by a
// chip (a link that can be shared), the selection tagged in one bulk edit, and the tag's
// statistics with its top shorts — on the desktop (table) and on a phone (cards).

const PHONE = { width: 390, height: 844 };
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';

beforeEachRejectAll();

/** The short's id, read by its code (as its owner). */
async function idOf(request: APIRequestContext, code: string): Promise<string> {
  const res = await request.get(`${BASE}/api/code/${code}?redirect=false`);
  return ((await res.json()) as { id: string }).id;
}

/** Adds a tag in a TagInput named `label`: typed, then Enter. */
async function addTag(page: Page, label: string, tag: string) {
  const input = page.getByLabel(label, { exact: true });
  await input.fill(tag);
  await input.press('Enter');
}

for (const device of ['desktop', 'phone'] as const) {
  test(`tags on the ${device}: tag in the form, filter by a chip, tag the selection, the tag's statistics`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const user = `tagger-${device}`;
    await devLogin(page, user);
    // Logged in (the user menu is checked at the desktop's width), then on the phone's.
    if (device === 'phone') await page.setViewportSize(PHONE);

    // The create form takes tags as chips: two spellings of one tag are one.
    await expect(page.getByLabel('Code', { exact: true })).toBeVisible();
    await page.getByLabel('URL', { exact: true }).fill(`https://${TARGET_HOST}/herbst-1`);
    await addTag(page, 'Tags', 'Herbst');
    await addTag(page, 'Tags', 'herbst');
    await addTag(page, 'Tags', 'Sale');
    const chosen = page.getByRole('list', { name: 'Gewählte Tags' });
    await expect(chosen.getByRole('listitem')).toHaveText([/Herbst/, /Sale/]);
    await page.getByRole('button', { name: 'Kürzen' }).click();
    await expect(page).toHaveURL(/\/info\?show_created=true$/);
    const first = new URL(page.url()).pathname.split('/')[2];
    // Two more: one with the tag (another spelling), one without.
    const second = await createOwn(page, {
      url: `https://${TARGET_HOST}/herbst-2`,
      tags: ['HERBST'],
    });
    const other = await createOwn(page, { url: `https://${TARGET_HOST}/sonst` });

    // The list shows the chips; one click filters by the tag, in the address.
    await page.goto('/shorts');
    const chip = page.locator(`[data-tag="Herbst"]`).first();
    await expect(chip).toBeVisible();
    await chip.click();
    await expect(page).toHaveURL(/\/shorts\?tag=Herbst$/);
    const item = (code: string) =>
      device === 'desktop'
        ? page.getByTestId('shorts-table').locator(`tr[data-code="${code}"]`)
        : page.getByTestId('short-card').and(page.locator(`[data-code="${code}"]`));
    await expect(item(first)).toBeVisible();
    await expect(item(second)).toBeVisible();
    await expect(item(other)).toHaveCount(0);
    await expectNoSeriousViolations(page);

    // Both selected, one bulk edit adds a tag to both.
    await page.getByLabel(`Short ${first} auswählen`).check();
    await page.getByLabel(`Short ${second} auswählen`).check();
    await expect(page.getByTestId('bulk-count')).toHaveText('2 Shorts ausgewählt');
    await page.getByRole('button', { name: 'Tags hinzufügen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Tags hinzufügen' });
    await expect(dialog).toContainText('Gilt für die 2 ausgewählten Shorts.');
    await addTag(page, 'Tags', 'Kampagne');
    await dialog.getByRole('button', { name: 'Übernehmen' }).click();
    await expect(page.getByText('2 Shorts geändert.', { exact: true })).toBeVisible();
    await expect(item(first).locator('[data-tag="Kampagne"]')).toBeVisible();
    await expect(item(second).locator('[data-tag="Kampagne"]')).toBeVisible();
    // The counts by tag (one spelling of each: either short's).
    const tags = (await (await page.request.get(`${BASE}/api/tags`)).json()) as Array<{
      tag: string;
      count: number;
    }>;
    expect(tags.map((x) => [x.tag.toLowerCase(), x.count])).toEqual([
      ['herbst', 2],
      ['kampagne', 2],
      ['sale', 1],
    ]);

    // Visits of the tagged shorts, then the tag's statistics: their sum and the top shorts.
    for (const [code, n] of [
      [first, 3],
      [second, 1],
      [other, 2],
    ] as const) {
      for (let i = 0; i < n; i++) {
        const res = await page.request.get(`${BASE}/s/${code}`, {
          headers: { 'user-agent': CHROME },
          maxRedirects: 0,
        });
        expect(res.status()).toBe(302);
      }
    }
    const firstId = await idOf(page.request, first);
    await expect
      .poll(async () => {
        const s = await page.request.get(`${BASE}/api/code/${firstId}/statistics`);
        return ((await s.json()) as { total: { visits: number } }).total.visits;
      })
      .toBe(3);
    await page.getByRole('link', { name: 'Statistik des Tags Herbst' }).click();
    await expect(page).toHaveURL(/\/tags\/Herbst\/statistics/);
    await expect(
      page.getByRole('heading', { name: 'Statistik des Tags Herbst', level: 1 }),
    ).toBeVisible();
    const top = page.getByRole('table', { name: /Top-Shorts|meisten Aufrufen/ });
    await expect(top.getByRole('row').nth(1)).toContainText(first);
    await expect(top.getByRole('row').nth(1)).toContainText('3');
    await expect(top.getByRole('row').nth(2)).toContainText(second);
    await expect(top).not.toContainText(other);
    await expectNoSeriousViolations(page);
  });
}
