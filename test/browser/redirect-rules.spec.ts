import { expect, test, type APIRequestContext, type Locator } from '@playwright/test';
import { BASE, beforeEachRejectAll, logIn, PERSON_UA, TARGET_HOST } from './support';

// Smart links (issue 24): an owner gives a short redirect rules in the edit dialog; visitors on an
// iPhone, on Android and with an English browser land on the rules' targets, everybody else on
// the short's url. The follow part needs the follow engine (branch `rules`); the dialog part
// needs only the fields.

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
// Headless Chromium says "HeadlessChrome", a bot, and bots get the default url: PERSON_UA.

const DEFAULT = `https://${TARGET_HOST}/standard`;
const APP_STORE = `https://apps.browser-test.invalid/ios`;
const PLAY_STORE = `https://play.browser-test.invalid/store?id=x`;
const ENGLISH = `https://${TARGET_HOST}/en`;

/** Fills rule `n`'s first condition and its target. */
async function fillRule(dialog: Locator, n: number, type: string, value: string, url: string) {
  const rule = dialog.getByRole('group', { name: `Regel ${n}` });
  await rule.getByLabel('Art von Bedingung 1').selectOption({ label: type });
  const input = rule.getByLabel('Wert von Bedingung 1');
  if ((await input.evaluate((el) => el.tagName)) === 'SELECT')
    await input.selectOption({ label: value });
  else await input.fill(value);
  await rule.getByLabel('dann weiter zu').fill(url);
}

/**
 * Where a visitor with this browser is sent when following the short: the follow's redirect
 * (a browser's route does not see the redirect's target, so the answer itself is read).
 */
async function landing(
  request: APIRequestContext,
  code: string,
  userAgent: string,
  acceptLanguage = 'de-DE,de;q=0.9',
): Promise<string> {
  const res = await request.get(`${BASE}/s/${code}`, {
    headers: { 'user-agent': userAgent, 'accept-language': acceptLanguage },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(302);
  return res.headers()['location'];
}

beforeEachRejectAll();

test('an owner adds three rules in the edit dialog; they are saved and shown again', async ({
  page,
}) => {
  test.setTimeout(60_000); // many steps on a shared machine
  await logIn(page, 'regelwerk');
  const res = await page.request.post(`${BASE}/api/code`, {
    data: { url: DEFAULT },
    headers: { Origin: BASE },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { code } = (await res.json()) as { code: string };

  await page.goto(`/s/${code}/info`);
  await page.getByRole('button', { name: 'Bearbeiten' }).click();
  const dialog = page.getByRole('dialog', { name: 'Short bearbeiten' });
  const editor = dialog.getByTestId('rules-editor');
  await expect(editor.getByRole('group', { name: /^Regel / })).toHaveCount(0);
  for (let i = 0; i < 3; i++)
    await editor.getByRole('button', { name: 'Regel hinzufügen' }).click();
  // Added in another order than wanted: English first, then moved to the end.
  await fillRule(editor, 1, 'Sprache', 'en', ENGLISH);
  await fillRule(editor, 2, 'Betriebssystem', 'iOS', APP_STORE);
  await fillRule(editor, 3, 'Betriebssystem', 'Android', PLAY_STORE);
  await editor.getByRole('button', { name: 'Regel 1 nach unten' }).click();
  await editor.getByRole('button', { name: 'Regel 2 nach unten' }).click();
  await dialog.getByLabel('Ziel nach Ablauf').fill(`https://${TARGET_HOST}/vorbei`);
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText('Der Short wurde gespeichert')).toBeVisible();
  await expect(dialog).toBeHidden();

  // The server has them, in that order.
  const info = await page.request.get(`${BASE}/api/code/${code}?redirect=false`);
  expect(await info.json()).toMatchObject({
    expiredUrl: `https://${TARGET_HOST}/vorbei`,
    rules: [
      { conditions: [{ type: 'os', value: 'ios' }], url: APP_STORE },
      { conditions: [{ type: 'os', value: 'android' }], url: PLAY_STORE },
      { conditions: [{ type: 'language', value: 'en' }], url: ENGLISH },
    ],
  });

  // After a reload the dialog shows them again.
  await page.reload();
  await page.getByRole('button', { name: 'Bearbeiten' }).click();
  const rules = dialog.getByTestId('rules-editor').getByRole('group', { name: /^Regel / });
  await expect(rules).toHaveCount(3);
  await expect(rules.nth(0).getByLabel('Wert von Bedingung 1')).toHaveValue('ios');
  await expect(rules.nth(0).getByLabel('dann weiter zu')).toHaveValue(APP_STORE);
  await expect(rules.nth(1).getByLabel('Wert von Bedingung 1')).toHaveValue('android');
  await expect(rules.nth(2).getByLabel('Art von Bedingung 1')).toHaveValue('language');
  await expect(rules.nth(2).getByLabel('Wert von Bedingung 1')).toHaveValue('en');
  await expect(dialog.getByLabel('Ziel nach Ablauf')).toHaveValue(`https://${TARGET_HOST}/vorbei`);

  // A refused rule is shown at that rule, by its errorKey: a rule may not lead to the short itself.
  await rules.nth(1).getByLabel('dann weiter zu').fill(`${BASE}/s/${code}`);
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(rules.nth(1).getByTestId('error-rules')).toHaveText(
    'Die URL führt zu diesem Dienst selbst (seine Adresse oder eine seiner Domains). Das gäbe eine Schleife.',
  );
  await expect(rules.nth(0).getByTestId('error-rules')).toHaveCount(0);
});

test('visitors land on the rule that matches them: iPhone, Android, English, else the url (needs the follow engine of branch rules)', async ({
  page,
  request,
}) => {
  await logIn(page, 'regelfolger');
  const res = await page.request.post(`${BASE}/api/code`, {
    headers: { Origin: BASE },
    data: {
      url: DEFAULT,
      rules: [
        { conditions: [{ type: 'os', value: 'ios' }], url: APP_STORE },
        { conditions: [{ type: 'os', value: 'android' }], url: PLAY_STORE },
        { conditions: [{ type: 'language', value: 'en' }], url: ENGLISH },
      ],
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { code } = (await res.json()) as { code: string };

  expect(await landing(request, code, IPHONE)).toBe(APP_STORE);
  expect(await landing(request, code, ANDROID, 'en-US,en;q=0.9')).toBe(PLAY_STORE); // the first match wins
  expect(await landing(request, code, PERSON_UA, 'en-GB,en;q=0.9,de;q=0.5')).toBe(ENGLISH);
  expect(await landing(request, code, PERSON_UA)).toBe(DEFAULT);
});
