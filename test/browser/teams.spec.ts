import { expect, test, type Page } from '@playwright/test';
import {
  BASE,
  beforeEachRejectAllAndStub,
  devLogin,
  expectNoSeriousViolations,
  giveConsent,
  stubExternal,
  TARGET_HOST,
} from './support';

// A team's day (CONTRACT "Teams", "API keys (several, named, scoped)"): the owner creates a team
// and an invite link, a second user joins through it as a viewer, the owner creates a short in
// the team, the viewer sees it in the team's space without edit or delete — on the desktop and
// on a phone. And the API-keys page: a key with scopes, shown once.

const PHONE = { width: 390, height: 844 };

beforeEachRejectAllAndStub();

/** The team page's id from its URL (/teams/{id}). */
async function teamIdOf(page: Page): Promise<string> {
  await expect(page).toHaveURL(/\/teams\/[^/?]+$/);
  return new URL(page.url()).pathname.split('/').pop()!;
}

test("a team's day: create, invite, join as viewer, a short in the team, read-only for the viewer", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  // The owner creates the team.
  await devLogin(page, 'teamchefin', '/teams');
  await expect(page.getByRole('heading', { name: 'Teams', level: 1 })).toBeVisible();
  await expect(page.getByText('Noch keine Teams')).toBeVisible();
  await page.getByLabel('Name des neuen Teams').fill('Redaktion');
  await page.getByRole('button', { name: 'Team erstellen' }).click();
  const teamId = await teamIdOf(page);
  await expect(page.getByRole('heading', { name: 'Redaktion', level: 1 })).toBeVisible();
  await expect(page.getByTestId('team-page').getByTestId('role-badge').first()).toHaveText(
    'Besitzer',
  );
  await expectNoSeriousViolations(page);

  // … and an invite link for a viewer.
  await page.getByLabel('Rolle der Eingeladenen').selectOption({ label: 'Betrachter' });
  await page.getByRole('button', { name: 'Einladungslink erstellen' }).click();
  const inviteField = page.getByTestId('invite-url');
  await expect(inviteField).toHaveValue(new RegExp(`^${BASE}/invite/[^/]+$`));
  const inviteUrl = await inviteField.inputValue();
  const invitePath = new URL(inviteUrl).pathname;
  await expect(page.getByTestId('invite-expires')).toHaveText(/^Gültig bis /);
  await expect(page.getByTestId('invite-copy')).toHaveText('Kopieren');

  // A second user opens the link: first the login, then 'Team beitreten'.
  const guestContext = await browser.newContext({ baseURL: BASE });
  await giveConsent(guestContext, false);
  await stubExternal(guestContext);
  const guest = await guestContext.newPage();
  await guest.goto(invitePath);
  await expect(guest).toHaveURL(/\/login$/);
  await expect(guest.getByText('Du musst eingeloggt sein um diese Seite zu sehen.')).toBeVisible();
  await devLogin(guest, 'teamgast', invitePath);
  await expect(guest.getByRole('heading', { name: 'Team beitreten' })).toBeVisible();
  await guest.getByRole('button', { name: 'Team beitreten' }).click();
  await expect(guest).toHaveURL(`${BASE}/teams/${teamId}`);
  await expect(guest.getByText('Du bist jetzt im Team Redaktion.')).toBeVisible();
  await expect(guest.getByTestId('team-page').getByTestId('role-badge').first()).toHaveText(
    'Betrachter',
  );
  // A viewer changes no roles and invites nobody.
  await expect(guest.getByTestId('member-role')).toHaveCount(0);
  await expect(guest.getByTestId('invite-card')).toHaveCount(0);

  // The owner sees the new member, as a viewer.
  await page.reload();
  await expect(page.getByLabel('Rolle von teamgast')).toHaveValue('viewer');

  // The owner switches to the team and creates a short in it.
  await page.getByRole('button', { name: /^Bereich wählen: / }).click();
  await page.locator(`[data-testid="space-option"][data-space="${teamId}"]`).click();
  await expect(page.getByTestId('space-current')).toHaveText('Redaktion');
  await page.goto('/');
  await expect(page.getByTestId('create-team')).toHaveText('Wird im Team Redaktion erstellt.');
  await page.getByLabel('URL', { exact: true }).fill(`https://${TARGET_HOST}/team-tag`);
  await page.getByRole('button', { name: 'Kürzen' }).click();
  await expect(page).toHaveURL(/\/s\/[^/]+\/info\?show_created=true$/);
  const code = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);

  // The owner's team list has it, with every action.
  await page.goto(`/shorts?team=${teamId}`);
  const ownerRow = page.locator(`[data-testid="short-row"][data-code="${code}"]`);
  await expect(ownerRow).toBeVisible();
  await expect(ownerRow.getByRole('button', { name: `${code} bearbeiten` })).toBeVisible();
  await expect(ownerRow.getByRole('button', { name: `Short ${code} löschen` })).toBeVisible();

  // The viewer sees it in the team's space, without edit, move or delete (desktop).
  await guest.goto(`/shorts?team=${teamId}`);
  await expect(guest.getByTestId('shorts-team')).toContainText('Redaktion');
  await expect(guest.getByTestId('shorts-read-only')).toBeVisible();
  const guestRow = guest.locator(`[data-testid="short-row"][data-code="${code}"]`);
  await expect(guestRow).toBeVisible();
  await expect(guestRow.getByRole('button', { name: `${code} bearbeiten` })).toHaveCount(0);
  await expect(guestRow.getByRole('button', { name: `Short ${code} löschen` })).toHaveCount(0);
  await expect(guestRow.getByRole('button', { name: `${code} verschieben` })).toHaveCount(0);
  await expect(guest.getByTestId('new-short')).toHaveCount(0);
  await expect(guest.getByRole('button', { name: 'Importieren' })).toHaveCount(0);
  await expectNoSeriousViolations(guest);
  // Its own space does not have it.
  await guest.getByRole('button', { name: /^Bereich wählen: / }).click();
  await guest.locator('[data-testid="space-option"][data-space=""]').click();
  await expect(guest).toHaveURL(`${BASE}/shorts`);
  await expect(guest.locator(`[data-code="${code}"]`)).toHaveCount(0);

  // On a phone: the same, as cards.
  await guest.setViewportSize(PHONE);
  await guest.goto(`/shorts?team=${teamId}`);
  const card = guest.locator(`[data-testid="short-card"][data-code="${code}"]`);
  await expect(card).toBeVisible();
  await expect(card.getByRole('button', { name: `${code} bearbeiten` })).toHaveCount(0);
  await expect(card.getByRole('button', { name: `Short ${code} löschen` })).toHaveCount(0);
  await expect(guest.getByTestId('shorts-read-only')).toBeVisible();

  await page.setViewportSize(PHONE);
  await page.goto(`/teams/${teamId}`);
  await expect(page.getByTestId('member')).toHaveCount(2);
  await expect(page.getByLabel('Rolle von teamgast')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Einladungslink erstellen' })).toBeVisible();
  await expectNoSeriousViolations(page);
  await guestContext.close();
});

test('API keys: a key with scopes is shown once, then only its prefix', async ({
  page,
  request,
}) => {
  await devLogin(page, 'schluesselmeister', '/account/keys');
  await expect(page.getByRole('heading', { name: 'API-Keys', level: 1 })).toBeVisible();
  await expect(page.getByText('Noch keine API-Keys')).toBeVisible();
  await page.getByRole('button', { name: 'Neuer API-Key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Neuen API-Key erstellen' });
  await dialog.getByLabel('Name', { exact: true }).fill('Deploy');
  await dialog.getByLabel(/Shorts erstellen und ändern/).check();
  await expect(dialog.getByLabel(/Shorts lesen/)).toBeChecked();
  await dialog.getByRole('button', { name: 'Erstellen' }).click();

  const shown = page.getByRole('dialog', { name: 'Dein neuer API-Key' });
  await expect(shown.getByTestId('key-once-warning')).toHaveText(
    'Kopiere den Key jetzt: Er wird nicht noch einmal angezeigt.',
  );
  const key = await shown.getByTestId('key-value').inputValue();
  expect(key.length).toBeGreaterThan(20);
  await expect(shown.getByTestId('key-copy')).toHaveText('Kopieren');
  await expectNoSeriousViolations(page);
  await shown.getByRole('button', { name: 'Schließen' }).last().click();
  await expect(shown).toBeHidden();

  const row = page.locator('[data-testid="key-row"][data-name="Deploy"]');
  await expect(row).toBeVisible();
  await expect(row.getByTestId('key-scopes')).toHaveText(/shorts:read\s*shorts:write/);
  await expect(row.getByTestId('key-last-used')).toHaveText('nie');
  await expect(page.getByText(key)).toHaveCount(0);
  await page.reload();
  await expect(row).toBeVisible();
  await expect(page.locator('body')).not.toContainText(key);

  // The key works within its scopes.
  const res = await request.get(`${BASE}/api/code`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  expect(res.status()).toBe(200);

  // On a phone the keys are cards; revoking asks first.
  await page.setViewportSize(PHONE);
  await page.reload();
  await page.getByRole('button', { name: 'Deploy widerrufen' }).click();
  const confirm = page.getByRole('dialog', { name: 'API-Key widerrufen' });
  await confirm.getByRole('button', { name: 'Widerrufen' }).click();
  await expect(page.getByText('Der API-Key wurde widerrufen.')).toBeVisible();
  await expect(page.getByText('Noch keine API-Keys')).toBeVisible();
});
