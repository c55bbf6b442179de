import { expect, test } from '@playwright/test';
import {
  BASE,
  beforeEachRejectAll,
  createShort,
  FLAGS_BASE,
  giveConsent,
  markDangerous,
  navigateFrom,
  TARGET_HOST,
} from './support';

beforeEachRejectAll();

test('creates an anonymous short through the form, lands on the info page, and follows it', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page).toHaveTitle('URL-Shorter: Teile deine Links einfach und schnell');
  await expect(page.getByRole('heading', { name: 'Link kürzen' })).toBeVisible();
  // Anonymous visitors see URL and password only.
  await expect(page.getByLabel('Max. Aufrufe')).toHaveCount(0);
  const target = `https://${TARGET_HOST}/formular`;
  await page.getByLabel('URL', { exact: true }).fill(target);
  await page.getByRole('button', { name: 'Kürzen' }).click();

  await expect(page).toHaveURL(/\/s\/[^/]+\/info\?show_created=true$/);
  const banner = page.getByTestId('created-banner');
  await expect(banner).toContainText('Der Short wurde erfolgreich erstellt');
  await expect(banner).toContainText('Melde dich an, damit deine Shorts länger gültig bleiben.');
  // Said once: the banner, no toast besides.
  await expect(page.getByText('Der Short wurde erfolgreich erstellt')).toHaveCount(1);
  const code = /\/s\/([^/]+)\/info/.exec(page.url())![1];
  await expect(banner.getByTestId('created-link')).toHaveText(`${BASE}/s/${code}`);
  await expect(page.getByLabel('Url', { exact: true })).toHaveValue(target);
  // Statistics and reports are the owner's: an anonymous short has none to show.
  await expect(page.getByRole('tab', { name: 'Statistiken' })).toHaveCount(0);
  await expect(page.getByText('Beschwerden')).toHaveCount(0);

  // Follow it: the server answers /s/{code} with a redirect to the target. (A navigation from the
  // page, as a visitor's click; page.goto does not route the cross-site redirect in this setup.)
  await navigateFrom(page, `/s/${code}`);
  await expect(page).toHaveURL(target);
  await expect(page.getByRole('heading', { name: 'Zielseite /formular' })).toBeVisible();
});

test('copies the link with a confirmation', async ({ page, context, request }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
  const code = await createShort(request, { url: `https://${TARGET_HOST}/kopie` });
  await page.goto(`/s/${code}/info?show_created=true`);
  await page.getByTestId('created-banner').getByRole('button', { name: 'Kopieren' }).click();
  await expect(page.getByText('Link wurde kopiert.')).toBeVisible();
});

test('password flow: prompt, wrong password, right password', async ({ page, request }) => {
  const code = await createShort(request, {
    url: `https://${TARGET_HOST}/geheim`,
    password: 'richtig-123',
  });
  await page.goto(`/s/${code}`);
  await expect(page).toHaveURL(new RegExp(`/s/${code}/password-required$`));
  await expect(page.getByRole('heading', { name: 'Passwort erforderlich' })).toBeVisible();
  const field = page.getByLabel('Passwort', { exact: true });
  await expect(field).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Passwort anzeigen' }).click();
  await expect(field).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Passwort verbergen' }).click();
  await expect(field).toHaveAttribute('type', 'password');

  await field.fill('falsch');
  await page.getByRole('button', { name: 'Link öffnen' }).click();
  await expect(page).toHaveURL(new RegExp(`/s/${code}/password-required\\?wrong=true$`));
  await expect(page.getByText('Das Passwort ist falsch.')).toBeVisible();

  await page.getByLabel('Passwort', { exact: true }).fill('richtig-123');
  await page.getByRole('button', { name: 'Link öffnen' }).click();
  await expect(page).toHaveURL(`https://${TARGET_HOST}/geheim`);
  await expect(page.getByRole('heading', { name: 'Zielseite /geheim' })).toBeVisible();
});

test('camelCase password route shows the same prompt', async ({ page, request }) => {
  const code = await createShort(request, {
    url: `https://${TARGET_HOST}/camel`,
    password: 'pw-camel',
  });
  await page.goto(`/s/${code}/passwordRequired`);
  await expect(page.getByRole('heading', { name: 'Passwort erforderlich' })).toBeVisible();
});

test('dangerous page and its button', async ({ page, request }) => {
  const code = await createShort(request, { url: `https://${TARGET_HOST}/gefahr` });
  markDangerous(code);
  await page.goto(`/s/${code}`);
  await expect(page).toHaveURL(new RegExp(`/s/${code}/potentially-dangerous$`));
  await expect(page.getByRole('heading', { name: 'Potenziell gefährlicher Link' })).toBeVisible();
  await expect(
    page.getByText('Mehrere Nutzer haben diesen Short als gefährlich gemeldet.'),
  ).toBeVisible();
  await expect(page.getByText(`Ziel: https://${TARGET_HOST}/gefahr`)).toBeVisible();
  const button = page.getByRole('link', { name: 'Short trotzdem öffnen' });
  await expect(button).toHaveAttribute('href', `/s/${code}?accept_danger=true`);
  await button.click();
  await expect(page).toHaveURL(`https://${TARGET_HOST}/gefahr`);
});

test('dangerous short with a password: warning, then password, then the target', async ({
  page,
  request,
}) => {
  const code = await createShort(request, {
    url: `https://${TARGET_HOST}/gefahr-geheim`,
    password: 'gefahr-pw',
  });
  markDangerous(code);
  await page.goto(`/s/${code}`);
  await expect(page).toHaveURL(new RegExp(`/s/${code}/potentially-dangerous$`));
  await page.getByRole('link', { name: 'Short trotzdem öffnen' }).click();
  await expect(page).toHaveURL(new RegExp(`/s/${code}/password-required\\?accept_danger=true$`));
  const field = page.getByLabel('Passwort', { exact: true });
  await field.fill('falsch');
  await page.getByRole('button', { name: 'Link öffnen' }).click();
  await expect(page).toHaveURL(
    new RegExp(`/s/${code}/password-required\\?wrong=true&accept_danger=true$`),
  );
  await page.getByLabel('Passwort', { exact: true }).fill('gefahr-pw');
  await page.getByRole('button', { name: 'Link öffnen' }).click();
  await expect(page).toHaveURL(`https://${TARGET_HOST}/gefahr-geheim`);
});

test('dangerous page of an unknown short goes to the info page', async ({ page }) => {
  await page.goto('/s/gibtsnicht1/potentiallyDangerous');
  await expect(page).toHaveURL(/\/s\/gibtsnicht1\/info$/);
  await expect(page.getByRole('heading', { name: 'Short nicht gefunden' })).toBeVisible();
});

test('lookup with a full short URL and with junk', async ({ page, request }) => {
  const code = await createShort(request, { url: `https://${TARGET_HOST}/nachschlagen` });
  await page.goto('/');
  const input = page.getByLabel('Short-Code oder Short-URL');
  await input.fill(`${BASE}/s/${code}/`);
  await page.getByRole('button', { name: 'Nachschlagen' }).click();
  await expect(page).toHaveURL(new RegExp(`/s/${code}/info$`));
  await expect(page.getByLabel('Url', { exact: true })).toHaveValue(
    `https://${TARGET_HOST}/nachschlagen`,
  );

  await page.goto('/s');
  await expect(
    page.getByText('Gib einen Short-Code ein, um zu sehen, wohin er führt.'),
  ).toBeVisible();
  await page.getByLabel('Short-Code oder Short-URL').fill('   !!! ');
  await page.getByRole('button', { name: 'Nachschlagen' }).click();
  await expect(page.getByText('Ungültige URL/Short')).toBeVisible();
  await expect(page).toHaveURL(/\/s$/);
});

test('not-found info, from the follow path and directly', async ({ page }) => {
  await page.goto('/s/zzzzzzz');
  await expect(page).toHaveURL(/\/s\/zzzzzzz\/info\?not_found=true$/);
  await expect(page.getByRole('heading', { name: 'Diesen Short gibt es nicht' })).toBeVisible();
  await expect(page.getByText('Unter dem Code zzzzzzz gibt es keinen Short (mehr).')).toBeVisible();
  // Looked up directly, the page cannot know why: it says only what it knows.
  await page.goto('/s/yyyyyyy/info');
  await expect(page.getByRole('heading', { name: 'Short nicht gefunden' })).toBeVisible();
  await expect(page.getByText('Der Short yyyyyyy wurde nicht gefunden.')).toBeVisible();
  await expect(page.getByText('Fehler beim Laden der Short Information')).toHaveCount(0);
});

test('delete confirmation route opens the confirmation; a stranger cannot delete', async ({
  page,
  request,
}) => {
  const code = await createShort(request, { url: `https://${TARGET_HOST}/loeschen` });
  await page.goto(`/s/${code}/delete`);
  await expect(page).toHaveURL(new RegExp(`/s/${code}/info\\?show_delete=true$`));
  await page.getByRole('button', { name: 'Endgültig löschen' }).click();
  await expect(page.getByText('Short konnte nicht gelöscht werden!')).toBeVisible();
});

test('report button of a non-owner opens the report dialog with the login hint', async ({
  page,
  request,
}) => {
  const code = await createShort(request, { url: `https://${TARGET_HOST}/melden` });
  await page.goto(`/s/${code}/info`);
  await page.getByRole('button', { name: 'Link Melden' }).click();
  await expect(page).toHaveURL(/show_report=true/);
  await expect(
    page.getByText('Sie müssen eingeloggt sein, um einen Short zu melden.'),
  ).toBeVisible();
});

test('unknown routes go to the start page; login-required pages go to /login with the warning', async ({
  page,
}) => {
  await page.goto('/gibt/es/nicht');
  await expect(page).toHaveURL(`${BASE}/`);
  await page.goto('/shorts');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Du musst eingeloggt sein um diese Seite zu sehen.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Anmelden' })).toBeVisible();
  // One button per provider; the terms checkbox is required.
  await page.getByRole('button', { name: 'Mit dev anmelden' }).click();
  await expect(page.getByText('Nutzungsbedingungen müssen akzeptiert werden!')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('login page without any provider says so', async ({ page, context }) => {
  await giveConsent(context, false, FLAGS_BASE);
  await page.goto(`${FLAGS_BASE}/login`);
  await expect(
    page.getByText('Es wurden keine Login Anbieter konfiguriert. Bitte wende dich an den Support.'),
  ).toBeVisible();
});

test('info page shows an IDN host in Unicode, and its punycode form when the host mixes scripts', async ({
  page,
  request,
}) => {
  const plain = await createShort(request, { url: 'https://bücher.example/regal' });
  await page.goto(`/s/${plain}/info`);
  await expect(page.getByLabel('Url', { exact: true })).toHaveValue('https://bücher.example/regal');
  await expect(page.getByText('mischt Schriftsysteme')).toHaveCount(0);

  // Cyrillic letters that look like "apple": the real address is shown beside it.
  const lookalike = await createShort(request, { url: 'https://аррӏе.com/login' });
  await page.goto(`/s/${lookalike}/info`);
  await expect(page.getByLabel('Url', { exact: true })).toHaveValue('https://аррӏе.com/login');
  const hint = page.getByText('Achtung: Diese Adresse mischt Schriftsysteme');
  await expect(hint).toBeVisible();
  await expect(hint.locator('code')).toHaveText(new URL('https://аррӏе.com/login').href);
});
