import { expect, test, type PlaywrightWorkerArgs } from '@playwright/test';
import {
  BASE,
  beforeEachRejectAll,
  devLogin,
  seriousA11yViolations,
  TARGET_HOST,
  userClient,
} from './support';

const TYPES: Record<string, string> = {
  CHILD_ABUSE: 'Kindesmissbrauch',
  HARMFUL: 'Schädlich',
  HATEFUL: 'Hasserfüllt',
  ILLEGAL: 'Illegal',
  MOBBING: 'Mobbing',
  SEXUAL_CONTENT: 'Sexuelle Inhalte',
  SPAM: 'Spam',
  TERRORISM: 'Terrorismus',
  VIOLENCE: 'Gewalt',
  OTHER: 'Sonstiges',
};

/** A first user (the owner) with their own API client: logged in, creates a short. */
async function ownerWithShort(
  playwright: PlaywrightWorkerArgs['playwright'],
  username: string,
  path: string,
) {
  const owner = await userClient(playwright, username);
  const res = await owner.post('/api/code', {
    data: { url: `https://${TARGET_HOST}/${path}`, name: `Short von ${username}` },
  });
  expect(res.status()).toBe(201);
  const { code } = (await res.json()) as { code: string };
  const { id } = (await (await owner.get(`/api/code/${code}?redirect=false`)).json()) as {
    id: string;
  };
  return { owner, code, id };
}

beforeEachRejectAll();

test('a second user reports a short: both messages, success, then the already-reported toast', async ({
  page,
  playwright,
}) => {
  const { owner, code } = await ownerWithShort(playwright, 'rita', 'gemeldet');
  await devLogin(page, 'sven', `/s/${code}/info`);
  await expect(page.getByRole('button', { name: 'Löschen', exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: 'Link Melden' }).click();
  await expect(page).toHaveURL(/[?&]show_report=true/);
  const dialog = page.getByRole('dialog', { name: 'Short melden' });
  await expect(dialog).toBeVisible();

  // The ten types with their German labels, and a 10-row description.
  const select = dialog.getByLabel('Art der Beschwerde');
  const options = await select
    .locator('option')
    .evaluateAll((els) =>
      els.map((e) => [(e as unknown as { value: string }).value, e.textContent]),
    );
  expect(options.slice(1)).toEqual(Object.entries(TYPES));
  await expect(dialog.getByLabel('Beschreibung')).toHaveAttribute('rows', '10');

  await dialog.getByRole('button', { name: 'Senden' }).click();
  await expect(
    dialog.getByText('Es muss eine Art der Beschwerde ausgewählt werden.'),
  ).toBeVisible();
  await expect(dialog.getByText('Es muss eine Beschreibung angegeben werden.')).toBeVisible();
  await select.selectOption('MOBBING');
  await dialog.getByRole('button', { name: 'Senden' }).click();
  await expect(dialog.getByText('Es muss eine Art der Beschwerde ausgewählt werden.')).toBeHidden();
  await expect(dialog.getByText('Es muss eine Beschreibung angegeben werden.')).toBeVisible();
  await dialog.getByLabel('Beschreibung').fill('Beleidigt andere Nutzer.');
  await dialog.getByRole('button', { name: 'Senden' }).click();
  await expect(page.getByText('Die Beschwerde wurde erfolgreich gesendet.')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page).not.toHaveURL(/show_report/);

  // Again: the server refuses a second report by the same user.
  await page.getByRole('button', { name: 'Link Melden' }).click();
  await expect(dialog.getByLabel('Beschreibung')).toHaveValue('');
  await dialog.getByLabel('Art der Beschwerde').selectOption('SPAM');
  await dialog.getByLabel('Beschreibung').fill('Noch einmal.');
  await dialog.getByRole('button', { name: 'Senden' }).click();
  await expect(page.getByText('Du hast diesen Short bereits gemeldet.')).toBeVisible();

  await owner.dispose();
});

test('reporting a short deleted meanwhile, and a server failure, show their toasts', async ({
  page,
  playwright,
}) => {
  const { owner, code, id } = await ownerWithShort(playwright, 'rolf', 'weg');
  await devLogin(page, 'tina', `/s/${code}/info?show_report=true`);
  const dialog = page.getByRole('dialog', { name: 'Short melden' });
  await dialog.getByLabel('Art der Beschwerde').selectOption('OTHER');
  await dialog.getByLabel('Beschreibung').fill('Seltsam.');

  // A server failure: the general message, and the dialog stays open.
  await page.route(`**/api/code/${code}/report`, (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/problem+json',
      body: JSON.stringify({ status: 500, detail: 'Internal Server Error' }),
    }),
  );
  await dialog.getByRole('button', { name: 'Senden' }).click();
  await expect(page.getByText('Die Beschwerde konnte nicht gesendet werden.')).toBeVisible();
  await expect(dialog).toBeVisible();
  await page.unroute(`**/api/code/${code}/report`);

  // The owner deletes the short while the dialog is open.
  expect((await owner.delete(`/api/code/${id}`)).status()).toBe(204);
  await dialog.getByRole('button', { name: 'Senden' }).click();
  await expect(page.getByText('Der Short existiert nicht.')).toBeVisible();
  await owner.dispose();
});

test('anonymous visitors are asked to log in and come back to the open report dialog', async ({
  page,
  playwright,
}) => {
  const { owner, code } = await ownerWithShort(playwright, 'ruth', 'anonym');
  await page.goto(`/s/${code}/info`);
  await page.getByRole('button', { name: 'Link Melden' }).click();
  const dialog = page.getByRole('dialog', { name: 'Short melden' });
  await expect(
    dialog.getByText('Sie müssen eingeloggt sein, um einen Short zu melden.'),
  ).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Senden' })).toHaveCount(0);
  expect(await seriousA11yViolations(page)).toEqual([]);

  // Closing removes the query; opening it again shows the dialog.
  await dialog.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).not.toHaveURL(/show_report/);
  await page.getByRole('button', { name: 'Link Melden' }).click();
  await dialog.getByRole('link', { name: 'Anmelden' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Ich akzeptiere die Nutzungsbedingungen').check();
  await page.getByRole('button', { name: 'Mit dev anmelden' }).click();
  await page.getByLabel('Benutzername').fill('uwe');
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page).toHaveURL(`${BASE}/s/${code}/info?show_report=true`);
  await expect(dialog.getByLabel('Art der Beschwerde')).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await dialog.getByLabel('Art der Beschwerde').selectOption('HARMFUL');
  await dialog.getByLabel('Beschreibung').fill('Schadsoftware.');
  await dialog.getByRole('button', { name: 'Senden' }).click();
  await expect(page.getByText('Die Beschwerde wurde erfolgreich gesendet.')).toBeVisible();
  await owner.dispose();
});

test('statistics and complaints are the owner’s: a visitor sees neither, and asks for neither', async ({
  page,
  playwright,
}) => {
  const { owner, code } = await ownerWithShort(playwright, 'stefan', 'statistik');
  const asked: string[] = [];
  page.on('request', (r) => {
    if (/\/(statistics|reports)\b/.test(new URL(r.url()).pathname)) asked.push(r.url());
  });
  // The server offers statistics (the default), a visitor even asks for them with ?tab=.
  await page.goto(`/s/${code}/info?tab=statistics`);
  await expect(page.getByLabel('Code', { exact: true })).toHaveValue(code);
  await expect(page.getByRole('tab')).toHaveCount(0);
  await expect(page.getByText('Statistiken')).toHaveCount(0);
  await expect(page.getByText('Beschwerden')).toHaveCount(0);
  await expect(page.getByText('coming soon')).toHaveCount(0);
  expect(asked).toEqual([]);
  await owner.dispose();
});
