import { expect, test, type APIRequestContext } from '@playwright/test';
import { openAdvanced } from './create-form';
import {
  BASE,
  beforeEachRejectAll,
  devLogin,
  expectNoSeriousViolations,
  logIn,
  TARGET_HOST,
} from './support';

// The owner's second walk (issue 40): the create form folds its rarer fields into 'Erweitert',
// says at the field why a link to this service is refused and which characters a code may have;
// the info page's overview sums up the redirects; the statistics name the rules.

const APP_STORE = 'https://apps.browser-test.invalid/ios';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

beforeEachRejectAll();

test("create: 'Erweitert' holds max uses, after-expiry target and rules; the overview sums them up (axe)", async ({
  page,
}) => {
  test.setTimeout(60_000);
  await devLogin(page, 'faltgruppe');
  const toggle = page.getByRole('button', { name: 'Erweitert', exact: true });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByLabel('Max. Aufrufe')).toHaveCount(0);
  await expect(page.getByLabel('Ziel nach Ablauf')).toHaveCount(0);
  await expectNoSeriousViolations(page);

  await page.getByLabel('URL', { exact: true }).fill(`https://${TARGET_HOST}/standard`);
  await openAdvanced(page);
  await page.getByLabel('Max. Aufrufe').fill('50');
  await page.getByLabel('Ziel nach Ablauf').fill('https://example.com/angebot-beendet');
  const editor = page.getByTestId('rules-editor');
  await editor.getByRole('button', { name: 'Regel hinzufügen' }).click();
  const rule = editor.getByRole('group', { name: 'Regel 1' });
  await rule.getByLabel('Art von Bedingung 1').selectOption({ label: 'Betriebssystem' });
  await rule.getByLabel('Wert von Bedingung 1').selectOption({ label: 'iOS' });
  await rule.getByLabel('dann weiter zu').fill(APP_STORE);
  await expectNoSeriousViolations(page);
  // Folded again, it says that something is set in it.
  await toggle.click();
  await expect(page.getByTestId('advanced-set')).toHaveText('3 Angaben gesetzt');
  await page.getByRole('button', { name: 'Kürzen' }).click();

  await expect(page).toHaveURL(/\/s\/[^/]+\/info\?show_created=true$/);
  const redirects = page.getByRole('list', { name: 'Weiterleitungen' });
  await expect(redirects.getByRole('listitem')).toHaveText([
    'iOS → apps.browser-test.invalid/ios',
    'Nach Ablauf → example.com/angebot-beendet',
  ]);
  await expectNoSeriousViolations(page);

  // A new visit without the design consent starts folded again.
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Erweitert', exact: true })).toHaveAttribute(
    'aria-expanded',
    'false',
  );
});

test('a link to this service is refused at the URL field; the code field names its characters', async ({
  page,
}) => {
  await devLogin(page, 'schleife');
  const url = page.getByLabel('URL', { exact: true });
  await url.fill(`${BASE}/s/irgendwas`);
  await page.getByRole('button', { name: 'Kürzen' }).click();
  const SELF =
    'Die URL führt zu diesem Dienst selbst (seine Adresse oder eine seiner Domains). Das gäbe eine Schleife.';
  await expect(page.getByTestId('error-url')).toHaveText(SELF);
  await expect(url).toHaveAttribute('aria-invalid', 'true');
  await expectNoSeriousViolations(page);
  await url.fill(`https://${TARGET_HOST}/richtig`);
  await expect(page.getByTestId('error-url')).toHaveCount(0);

  const code = page.getByLabel('Code', { exact: true });
  await expect(code).toHaveAccessibleDescription(
    '3 bis 64 Zeichen aus A–Z, a–z, 0–9, _ und -; Groß- und Kleinschreibung zählt.',
  );
  await code.fill('mein code!');
  await page.getByRole('button', { name: 'Kürzen' }).click();
  // The browser refused to send it, with the app's message instead of its own.
  expect(
    await code.evaluate((el) => (el as unknown as { validationMessage: string }).validationMessage),
  ).toBe('Erlaubt sind 3 bis 64 Zeichen aus A–Z, a–z, 0–9, _ und -.');
  await expect(page).toHaveURL(/\/$/);
});

/** Follows a short as a visitor with this browser (never following the redirect). */
async function follow(request: APIRequestContext, code: string, userAgent: string) {
  const res = await request.get(`${BASE}/s/${code}`, {
    headers: { 'user-agent': userAgent },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(302);
}

test("statistics: targets name the rule ('Regel 1: iOS'), macOS as the rules spell it, the legend shows totals", async ({
  page,
}) => {
  await logIn(page, 'regelstatistik');
  const res = await page.request.post(`${BASE}/api/code`, {
    headers: { Origin: BASE },
    data: {
      url: `https://${TARGET_HOST}/standard`,
      rules: [{ conditions: [{ type: 'os', value: 'ios' }], url: APP_STORE }],
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { code } = (await res.json()) as { code: string };
  const info = await page.request.get(`${BASE}/api/code/${code}?redirect=false`);
  const { id } = (await info.json()) as { id: string };
  for (let i = 0; i < 2; i++) await follow(page.request, code, IPHONE);
  await follow(page.request, code, MAC);
  await expect
    .poll(async () => {
      const s = await page.request.get(`${BASE}/api/code/${id}/statistics`);
      return ((await s.json()) as { total: { visits: number } }).total.visits;
    })
    .toBe(3);

  await page.goto(`/s/${code}/info?tab=statistics`);
  const panel = page.getByTestId('stats-panel');
  await expect(
    panel.getByTestId('stats-targets').getByRole('row', { name: /^Regel 1: iOS 2 67\s%$/ }),
  ).toBeVisible();
  await expect(
    panel.getByTestId('stats-targets').getByRole('row', { name: /^Standardziel 1 33\s%$/ }),
  ).toBeVisible();
  await expect(panel.getByTestId('stats-os').getByRole('row', { name: /^macOS 1/ })).toBeVisible();
  // Before the pointer is over the chart, the legend shows the totals (not '--').
  const legend = panel.getByTestId('stats-chart').locator('.u-legend');
  await expect(legend.locator('.u-series', { hasText: 'Aufrufe' }).locator('.u-value')).toHaveText(
    '3',
  );
  await expect(legend).not.toContainText('--');
  await expectNoSeriousViolations(page);
});
