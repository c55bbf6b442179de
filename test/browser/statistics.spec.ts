import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  BASE,
  beforeEachRejectAll,
  expectNoSeriousViolations,
  giveConsent,
  logIn,
  TARGET_HOST,
} from './support';

// The info page's 'Statistiken' tab for the owner: the server offers statistics by default, and
// the owner needs no opt-in and no consent (these tests reject all cookies).

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

/** Follows a short as some visitor (never following the redirect). */
async function follow(request: APIRequestContext, code: string, headers: Record<string, string>) {
  const res = await request.get(`${BASE}/s/${code}`, { headers, maxRedirects: 0 });
  expect([200, 302]).toContain(res.status());
}

/** Creates a short with traffic: 6 Chrome visits (3 from Google), 3 iPhone visits, 2 bot hits. */
async function shortWithTraffic(page: Page): Promise<{ code: string; id: string }> {
  const res = await page.request.post(`${BASE}/api/code`, {
    data: { url: `https://${TARGET_HOST}/statistik` },
    headers: { Origin: BASE },
  });
  expect(res.status()).toBe(201);
  const { code } = (await res.json()) as { code: string };
  const info = await page.request.get(`${BASE}/api/code/${code}?redirect=false`);
  const { id } = (await info.json()) as { id: string };
  const request = page.request;
  for (let i = 0; i < 6; i++)
    await follow(request, code, {
      'user-agent': CHROME,
      ...(i < 3 ? { referer: 'https://www.google.com/search?q=geheim' } : {}),
    });
  for (let i = 0; i < 3; i++)
    await follow(request, code, {
      'user-agent': IPHONE,
      referer: 'https://evil.example/<script>alert(1)</script>',
    });
  await follow(request, code, { 'user-agent': 'Twitterbot/1.0' });
  await follow(request, code, { 'user-agent': '' });
  // The aggregates are written about every second.
  await expect
    .poll(async () => {
      const s = await request.get(`${BASE}/api/code/${id}/statistics`);
      return ((await s.json()) as { total: { visits: number; bots: number } }).total;
    })
    .toEqual(expect.objectContaining({ visits: 9, bots: 2 }));
  return { code, id };
}

beforeEachRejectAll();

for (const scheme of ['light', 'dark'] as const) {
  test(`the owner sees totals, chart, top lists and the table (${scheme}, axe)`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await logIn(page, `statistiker-${scheme}`);
    const { code } = await shortWithTraffic(page);
    let alerted = false;
    page.on('dialog', (d) => {
      alerted = true;
      void d.dismiss();
    });
    await page.goto(`/s/${code}/info`);
    await page.getByRole('tab', { name: 'Statistiken' }).click();
    const panel = page.getByTestId('stats-panel');
    await expect(panel.getByTestId('stats-total-visits')).toHaveText('9');
    await expect(panel.getByTestId('stats-total-bots')).toHaveText('2');
    await expect(panel.getByTestId('stats-total-visitors')).toHaveText('2');
    await expect(panel.getByTestId('stats-chart').locator('canvas')).toBeVisible();
    const referrers = panel.getByTestId('stats-referrers');
    // Each row with its count and its share of the list (a bar and a percentage).
    await expect(referrers.getByRole('row', { name: /^google\.com 3 33\s%$/ })).toBeVisible();
    await expect(referrers.getByRole('row', { name: /^evil\.example 3 33\s%$/ })).toBeVisible();
    await expect(
      referrers.getByRole('row', { name: /^Direkt \(ohne Verweis\) 3 33\s%$/ }),
    ).toBeVisible();
    await expect(panel.locator('script')).toHaveCount(0);
    await expect(
      panel.getByTestId('stats-devices').getByRole('row', { name: /^Smartphone 3 33\s%$/ }),
    ).toBeVisible();
    await expect(
      panel.getByTestId('stats-browsers').getByRole('row', { name: /^Chrome 6 67\s%$/ }),
    ).toBeVisible();
    await expect(
      panel.getByTestId('stats-countries').getByRole('row', { name: /^Unbekannt 9 100\s%$/ }),
    ).toBeVisible();
    const bar = panel
      .getByTestId('stats-browsers')
      .getByRole('row', { name: /^Chrome/ })
      .locator('.progress-bar');
    expect(
      await bar.evaluate((el) => (el as unknown as { style: { width: string } }).style.width),
    ).toMatch(/^66\.6+\d*%$/);
    await panel.getByText('Zahlen als Tabelle').click();
    const table = panel.getByTestId('stats-table');
    await expect(table).toBeVisible();
    await panel.screenshot({ path: `test-results/screenshots/statistics-${scheme}.png` });
    await expectNoSeriousViolations(page);
    expect(alerted).toBe(false);
  });
}

test('the CSV download has the numbers of the table; the range choice asks again', async ({
  page,
}) => {
  await logIn(page, 'csv-statistiker');
  const { code } = await shortWithTraffic(page);
  await page.goto(`/s/${code}/info`);
  await page.getByRole('tab', { name: 'Statistiken' }).click();
  const panel = page.getByTestId('stats-panel');
  await expect(panel.getByTestId('stats-total-visits')).toHaveText('9');
  const request = page.waitForRequest((r) => r.url().includes('/statistics?'));
  await panel.getByLabel('Zeitraum').selectOption({ label: '24 Stunden' });
  expect(new URL((await request).url()).searchParams.get('granularity')).toBe('hour');
  await panel.getByText('Zahlen als Tabelle').click();
  const rows = panel.getByTestId('stats-table').locator('tbody tr');
  await expect(rows).toHaveCount(24);
  const tableRows = await rows.evaluateAll((trs) =>
    trs.map((tr) => [
      tr.getAttribute('data-start'),
      ...[...tr.querySelectorAll('td')].map((td) => td.textContent),
    ]),
  );
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByRole('link', { name: 'Als CSV herunterladen' }).click(),
  ]);
  const lines = readFileSync(await download.path(), 'utf8')
    .trim()
    .split('\r\n');
  expect(lines[0]).toBe('start,visits,visitors,bots');
  expect(lines.slice(1).map((l) => l.split(','))).toEqual(tableRows);
  expect(tableRows.reduce((n, r) => n + Number(r[1]), 0)).toBe(9);
});

test("a short without visits says 'Noch keine Aufrufe'; others get no statistics at all", async ({
  page,
  browser,
}) => {
  await logIn(page, 'ohne-aufrufe');
  const res = await page.request.post(`${BASE}/api/code`, {
    data: { url: `https://${TARGET_HOST}/leer` },
    headers: { Origin: BASE },
  });
  const { code } = (await res.json()) as { code: string };
  await page.goto(`/s/${code}/info`);
  await page.getByRole('tab', { name: 'Statistiken' }).click();
  await expect(page.getByTestId('stats-empty')).toHaveText('Noch keine Aufrufe');
  await expect(page.getByTestId('stats-total-visits')).toHaveText('0');
  // Another visitor's browser: a context of its own (no cookie of the owner's).
  const ctx = await browser.newContext({ baseURL: BASE });
  try {
    await giveConsent(ctx, false);
    const p = await ctx.newPage();
    await p.goto(`/s/${code}/info?tab=statistics`);
    await expect(p.getByLabel('Code', { exact: true })).toHaveValue(code);
    await expect(p.getByRole('tab', { name: 'Statistiken' })).toHaveCount(0);
    await expect(p.getByTestId('stats-panel')).toHaveCount(0);
  } finally {
    await ctx.close();
  }
});
