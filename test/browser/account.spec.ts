import { expect, test } from '@playwright/test';
import { openAdvanced } from './create-form';
import { beforeEachRejectAll, devLogin, logIn, TARGET_HOST } from './support';

beforeEachRejectAll();

test('logged-in create form: code, expiry understood in German, max uses, name; owner deletes', async ({
  page,
}) => {
  await devLogin(page, 'anna');
  await expect(page.getByRole('link', { name: 'Eigene Shorts' })).toBeVisible();
  await openAdvanced(page);
  await expect(page.getByLabel('Max. Aufrufe')).toHaveAttribute('placeholder', 'Unbegrenzt');
  await page.getByLabel('URL', { exact: true }).fill(`https://${TARGET_HOST}/angemeldet`);
  await page.getByLabel('Code', { exact: true }).fill('annas-code-1');
  await page.getByLabel('Ablaufdatum').fill('in 2 Tagen');
  await expect(page.getByText(/^Verstanden als: /)).toBeVisible();
  await page.getByLabel('Max. Aufrufe').fill('5');
  await page.getByLabel('Name', { exact: true }).fill('Annas Link');
  await page.getByRole('button', { name: 'Kürzen' }).click();

  await expect(page).toHaveURL(/\/s\/annas-code-1\/info\?show_created=true$/);
  await expect(page.getByTestId('created-banner')).toContainText(
    'Der Short wurde erfolgreich erstellt',
  );
  await expect(page.getByTestId('created-banner')).not.toContainText('Melde dich an');
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Annas Link');
  await expect(page.getByLabel('Max. Aufrufe')).toHaveValue('5');
  await expect(page.getByLabel('Ersteller')).toHaveValue('anna');

  // The same code again: the catalogue message.
  await page.goto('/');
  // The logged-in form (its Code field) once the login is known again after the page load.
  await expect(page.getByLabel('Code', { exact: true })).toBeVisible();
  await page.getByLabel('URL', { exact: true }).fill(`https://${TARGET_HOST}/doppelt`);
  await page.getByLabel('Code', { exact: true }).fill('annas-code-1');
  await expect(page.getByLabel('URL', { exact: true })).toHaveValue(
    `https://${TARGET_HOST}/doppelt`,
  );
  await page.getByRole('button', { name: 'Kürzen' }).click();
  // The spec's toast, and the same words at the code's field.
  await expect(page.getByTestId('error-code')).toHaveText('Der Code ist bereits vergeben');
  await expect(page.getByText('Der Code ist bereits vergeben')).toHaveCount(2);

  // The owner gets the delete button (no report button).
  await page.goto('/s/annas-code-1/info');
  await expect(page.getByRole('button', { name: 'Link Melden' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Löschen', exact: true }).click();
  await page.getByRole('button', { name: 'Endgültig löschen' }).click();
  await expect(page.getByText('Short erfolgreich gelöscht!')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/s/annas-code-1/info');
  await expect(page.getByText('Der Short annas-code-1 wurde nicht gefunden.')).toBeVisible();
});

test('user menu: logout brings back the Anmelden button', async ({ page }) => {
  await logIn(page, 'bert');
  await page.goto('/login');
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole('button', { name: 'Benutzermenü' }).click();
  await expect(page.getByRole('button', { name: 'Account' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Admin' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Abmelden' }).click();
  await expect(page.getByRole('link', { name: 'Anmelden', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Eigene Shorts' })).toHaveCount(0);
});

test('a logged-in non-owner reports a short', async ({ page, request }) => {
  const res = await request.post('/api/code', { data: { url: `https://${TARGET_HOST}/fremd` } });
  const { code } = (await res.json()) as { code: string };
  await logIn(page, 'carla');
  await page.goto(`/s/${code}/info?show_report=true`);
  const dialog = page.getByRole('dialog', { name: 'Short melden' });
  await dialog.getByRole('button', { name: 'Senden' }).click();
  await expect(
    dialog.getByText('Es muss eine Art der Beschwerde ausgewählt werden.'),
  ).toBeVisible();
  await expect(dialog.getByText('Es muss eine Beschreibung angegeben werden.')).toBeVisible();
  await dialog.getByLabel('Art der Beschwerde').selectOption('SPAM');
  await dialog.getByLabel('Beschreibung').fill('Werbung');
  await dialog.getByRole('button', { name: 'Senden' }).click();
  await expect(page.getByText('Die Beschwerde wurde erfolgreich gesendet.')).toBeVisible();
  await expect(page).not.toHaveURL(/show_report/);
  await page.goto(`/s/${code}/info?show_report=true`);
  await page
    .getByRole('dialog', { name: 'Short melden' })
    .getByLabel('Art der Beschwerde')
    .selectOption('SPAM');
  await page
    .getByRole('dialog', { name: 'Short melden' })
    .getByLabel('Beschreibung')
    .fill('Nochmal');
  await page
    .getByRole('dialog', { name: 'Short melden' })
    .getByRole('button', { name: 'Senden' })
    .click();
  await expect(page.getByText('Du hast diesen Short bereits gemeldet.')).toBeVisible();
});
