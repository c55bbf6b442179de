import { expect, test, type Page } from '@playwright/test';
import {
  BASE,
  beforeEachRejectAll,
  devLogin,
  expectNoSeriousViolations,
  giveConsent,
  TARGET_HOST,
} from './support';

// A team's day (CONTRACT "Teams", "API keys (several, named, scoped)"): the owner creates a team
// and an invite link, a second user joins through it as a viewer, the owner creates a short in
// the team, the viewer sees it in the team's space without edit or delete — on the desktop, then
// the whole walk again on a phone with the same logins. And the API-keys page: a key with scopes,
// shown once.

const PHONE = { width: 390, height: 844 };

beforeEachRejectAll();

/** The team page's id from its URL (/teams/{id}). */
async function teamIdOf(page: Page): Promise<string> {
  await expect(page).toHaveURL(/\/teams\/[^/?]+$/);
  return new URL(page.url()).pathname.split('/').pop()!;
}

/** The owner, on /teams, creates a team and a viewer's invite link: the team's id and the link's path. */
async function createTeamAndInvite(page: Page, name: string) {
  await page.getByLabel('Name des neuen Teams').fill(name);
  await page.getByRole('button', { name: 'Team erstellen' }).click();
  const teamId = await teamIdOf(page);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(page.getByTestId('team-page').getByTestId('role-badge').first()).toHaveText(
    'Besitzer',
  );
  await page.getByLabel('Rolle der Eingeladenen').selectOption({ label: 'Betrachter' });
  await page.getByRole('button', { name: 'Einladungslink erstellen' }).click();
  const inviteField = page.getByTestId('invite-url');
  await expect(inviteField).toHaveValue(new RegExp(`^${BASE}/invite/[^/]+$`));
  const invitePath = new URL(await inviteField.inputValue()).pathname;
  await expect(page.getByTestId('invite-expires')).toHaveText(/^Gültig bis /);
  await expect(page.getByTestId('invite-copy')).toHaveText('Kopieren');
  return { teamId, invitePath };
}

/** A logged-in user on the invite's page joins the team, as a viewer. */
async function joinAsViewer(guest: Page, teamId: string, name: string) {
  await expect(guest.getByRole('heading', { name: 'Team beitreten' })).toBeVisible();
  await guest.getByRole('button', { name: 'Team beitreten' }).click();
  await expect(guest).toHaveURL(`${BASE}/teams/${teamId}`);
  await expect(guest.getByText(`Du bist jetzt im Team ${name}.`)).toBeVisible();
  await expect(guest.getByTestId('team-page').getByTestId('role-badge').first()).toHaveText(
    'Betrachter',
  );
  // A viewer changes no roles and invites nobody.
  await expect(guest.getByTestId('member-role')).toHaveCount(0);
  await expect(guest.getByTestId('invite-card')).toHaveCount(0);
}

/**
 * The owner switches to the team's space (on a phone, the switcher is in the collapsed menu) and
 * creates a short there through the form: its code.
 */
async function createInTeam(page: Page, teamId: string, name: string, path: string, phone = false) {
  if (phone) await page.getByRole('button', { name: 'Menü öffnen' }).click();
  await page.getByRole('button', { name: /^Bereich wählen: / }).click();
  await page.locator(`[data-testid="space-option"][data-space="${teamId}"]`).click();
  await expect(page.getByTestId('space-current')).toHaveText(name);
  await page.goto('/');
  await expect(page.getByTestId('create-team')).toHaveText(`Wird im Team ${name} erstellt.`);
  await page.getByLabel('URL', { exact: true }).fill(`https://${TARGET_HOST}/${path}`);
  await page.getByRole('button', { name: 'Kürzen' }).click();
  await expect(page).toHaveURL(/\/s\/[^/]+\/info\?show_created=true$/);
  return decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
}

/** The short in the team's list: with edit and delete for a writer, without for a viewer. */
async function expectTeamShort(p: Page, teamId: string, code: string, item: string, edit: boolean) {
  await p.goto(`/shorts?team=${teamId}`);
  const row = p.locator(`[data-testid="${item}"][data-code="${code}"]`);
  await expect(row).toBeVisible();
  const count = edit ? 1 : 0;
  await expect(row.getByRole('button', { name: `${code} bearbeiten` })).toHaveCount(count);
  await expect(row.getByRole('button', { name: `Short ${code} löschen` })).toHaveCount(count);
  if (!edit) {
    await expect(row.getByRole('button', { name: `${code} verschieben` })).toHaveCount(0);
    await expect(p.getByTestId('shorts-read-only')).toBeVisible();
    await expect(p.getByTestId('new-short')).toHaveCount(0);
    await expect(p.getByRole('button', { name: 'Importieren' })).toHaveCount(0);
  }
}

test("a team's day on the desktop and then on a phone: create, invite, join as viewer, a short in the team, read-only for the viewer", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // The owner creates the team and an invite link for a viewer.
  await devLogin(page, 'teamchefin', '/teams');
  await expect(page.getByRole('heading', { name: 'Teams', level: 1 })).toBeVisible();
  await expect(page.getByText('Noch keine Teams')).toBeVisible();
  const desk = await createTeamAndInvite(page, 'Redaktion');
  await expectNoSeriousViolations(page);

  // A second user opens the link: first the login, then 'Team beitreten'.
  const guestContext = await browser.newContext({ baseURL: BASE });
  await giveConsent(guestContext, false);
  const guest = await guestContext.newPage();
  await guest.goto(desk.invitePath);
  await expect(guest).toHaveURL(/\/login$/);
  await expect(guest.getByText('Du musst eingeloggt sein um diese Seite zu sehen.')).toBeVisible();
  await devLogin(guest, 'teamgast', desk.invitePath);
  await joinAsViewer(guest, desk.teamId, 'Redaktion');

  // The owner sees the new member, as a viewer.
  await page.reload();
  await expect(page.getByLabel('Rolle von teamgast')).toHaveValue('viewer');

  // The owner creates a short in the team; his team list has it, with every action.
  const code = await createInTeam(page, desk.teamId, 'Redaktion', 'team-tag');
  await expectTeamShort(page, desk.teamId, code, 'short-row', true);

  // The viewer sees it in the team's space, without edit, move or delete.
  await expectTeamShort(guest, desk.teamId, code, 'short-row', false);
  await expect(guest.getByTestId('shorts-team')).toContainText('Redaktion');
  await expectNoSeriousViolations(guest);
  // Its own space does not have it.
  await guest.getByRole('button', { name: /^Bereich wählen: / }).click();
  await guest.locator('[data-testid="space-option"][data-space=""]').click();
  await expect(guest).toHaveURL(`${BASE}/shorts`);
  await expect(guest.locator(`[data-code="${code}"]`)).toHaveCount(0);

  // The same day on a phone, with the same two logins: a second team, its invite, the join, a
  // short in it, the viewer's cards without edit or delete.
  await page.setViewportSize(PHONE);
  await guest.setViewportSize(PHONE);
  await page.goto('/teams');
  const phone = await createTeamAndInvite(page, 'Vertrieb');
  await guest.goto(phone.invitePath);
  await joinAsViewer(guest, phone.teamId, 'Vertrieb');
  await page.reload();
  await expect(page.getByTestId('member')).toHaveCount(2);
  await expect(page.getByLabel('Rolle von teamgast')).toHaveValue('viewer');
  await expectNoSeriousViolations(page);
  const phoneCode = await createInTeam(page, phone.teamId, 'Vertrieb', 'team-phone', true);
  await expectTeamShort(page, phone.teamId, phoneCode, 'short-card', true);
  await expectTeamShort(guest, phone.teamId, phoneCode, 'short-card', false);
  await expect(guest.locator(`[data-code="${code}"]`)).toHaveCount(0); // the other team's short
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
