import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { beforeEachRejectAll, devLogin, expectNoSeriousViolations } from './support';

// Webhooks in the web client (issue 43, CONTRACT "Webhooks"): a webhook to a receiver this test
// runs on 127.0.0.1 (the app runs with METADATA_ALLOW_LOOPBACK, playwright.config.ts), its secret
// shown once, 'Test senden' (the receiver verifies the signature with the Standard Webhooks
// library), the delivery log with 'Zugestellt' and 'Erneut senden' (the same webhook-id) — on the
// desktop and on a phone. And a team's webhooks on the team page.

const PHONE = { width: 390, height: 844 };

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let receiver: Server;
let received: Received[] = [];
let hookUrl = '';

test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});

test.afterAll(async () => {
  await new Promise<void>((done) => receiver.close(() => done()));
});

test.beforeEach(() => {
  received = [];
});

beforeEachRejectAll();

/** The receiver's deliveries of one event type, each verified with the secret (throws if forged). */
function verified(secret: string, type: string): Received[] {
  return received.filter((r) => {
    const payload = new Webhook(secret).verify(r.body, {
      'webhook-id': String(r.headers['webhook-id']),
      'webhook-timestamp': String(r.headers['webhook-timestamp']),
      'webhook-signature': String(r.headers['webhook-signature']),
    }) as { type?: string };
    return payload.type === type;
  });
}

/** Creates a webhook in the open page's list (events by their German names); returns the secret. */
async function createWebhook(page: Page, url: string, events: string[]): Promise<string> {
  await page.getByRole('button', { name: 'Neuer Webhook' }).click();
  const dialog = page.getByRole('dialog', { name: 'Neuen Webhook anlegen' });
  await dialog.getByLabel('URL', { exact: true }).fill(url);
  for (const event of events) await dialog.getByLabel(event).check();
  await dialog.getByRole('button', { name: 'Anlegen' }).click();
  await expect(page.getByText('Der Webhook wurde angelegt.')).toBeVisible();
  const shown = page.getByRole('dialog', { name: 'Dein Webhook-Secret' });
  await expect(shown.getByTestId('webhook-once-warning')).toHaveText(
    'Kopiere das Secret jetzt: Es wird nicht noch einmal angezeigt.',
  );
  const secret = await shown.getByTestId('webhook-secret').inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{20,}$/);
  await expect(shown.getByTestId('webhook-copy')).toHaveText('Kopieren');
  const verify = shown.getByTestId('webhook-verify');
  await expect(verify).toContainText('So prüfst du eine Zustellung');
  for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature'])
    await expect(verify.getByText(header, { exact: true })).toBeVisible();
  await expectNoSeriousViolations(page);
  await shown.getByRole('button', { name: 'Schließen' }).last().click();
  await expect(shown).toBeHidden();
  return secret;
}

test("a webhook: the secret once, 'Test senden', the log with 'Zugestellt' and 'Erneut senden'", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await devLogin(page, 'hakenfreundin', '/account');
  await page.getByTestId('account-webhooks').click();
  await expect(page).toHaveURL(/\/account\/webhooks$/);
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
  await expect(page.getByText('Noch keine Webhooks')).toBeVisible();

  const secret = await createWebhook(page, hookUrl, [
    'Short erstellt short.created',
    'Short besucht short.followed',
  ]);
  const row = page.locator(`[data-testid="webhook-row"][data-url="${hookUrl}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId('webhook-events')).toHaveText(/short\.created\s*short\.followed/);
  await expect(row.getByTestId('webhook-state')).toHaveText('Aktiv');
  await expect(row).toContainText('Persönlich');
  await expect(page.locator('body')).not.toContainText(secret);
  await page.reload();
  await expect(row).toBeVisible();
  await expect(page.locator('body')).not.toContainText(secret);

  // 'Test senden': the receiver gets a webhook.test, signed with the secret.
  await row.getByRole('button', { name: `Test senden an ${hookUrl}` }).click();
  await expect(page.getByText('Das Test-Ereignis wurde gesendet.')).toBeVisible();
  await expect.poll(() => verified(secret, 'webhook.test').length, { timeout: 20_000 }).toBe(1);
  const eventId = String(verified(secret, 'webhook.test')[0].headers['webhook-id']);

  // The log has it as 'Zugestellt'.
  await row.getByRole('button', { name: `Zustellungen an ${hookUrl}` }).click();
  const log = page.getByRole('dialog', { name: `Zustellungen an ${hookUrl}` });
  const entry = log.locator('[data-testid="delivery-row"]', {
    has: page.locator('[data-type="webhook.test"]'),
  });
  await expect(async () => {
    await log.getByRole('button', { name: 'Aktualisieren' }).click();
    await expect(entry.getByTestId('delivery-status')).toHaveText('Zugestellt', { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(log.getByTestId('deliveries-table')).toBeVisible();
  await expect(entry.getByTestId('delivery-code')).toHaveText('204');
  await expect(entry.getByTestId('delivery-attempts')).toHaveText('1');
  await expectNoSeriousViolations(page);

  // 'Erneut senden': the same event again, with the same webhook-id.
  await entry.getByTestId('delivery-retry').click();
  await expect(page.getByText('Die Zustellung wurde erneut gesendet.')).toBeVisible();
  await expect.poll(() => verified(secret, 'webhook.test').length, { timeout: 20_000 }).toBe(2);
  expect(verified(secret, 'webhook.test').map((r) => r.headers['webhook-id'])).toEqual([
    eventId,
    eventId,
  ]);
  await expect(async () => {
    await log.getByRole('button', { name: 'Aktualisieren' }).click();
    await expect(entry.getByTestId('delivery-attempts')).toHaveText('2', { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await log.getByRole('button', { name: 'Schließen' }).last().click();
  await expect(log).toBeHidden();

  // Disable and enable again.
  await row.getByRole('button', { name: `${hookUrl} deaktivieren` }).click();
  await expect(page.getByText('Der Webhook ist jetzt deaktiviert.')).toBeVisible();
  await expect(row.getByTestId('webhook-state')).toHaveText('Deaktiviert');
  await row.getByRole('button', { name: `${hookUrl} aktivieren` }).click();
  await expect(row.getByTestId('webhook-state')).toHaveText('Aktiv');

  // On a phone: cards, the log as cards, the same badge.
  await page.setViewportSize(PHONE);
  await page.reload();
  await expect(page.getByTestId('webhooks-cards')).toBeVisible();
  await row.getByRole('button', { name: `Test senden an ${hookUrl}` }).click();
  await expect(page.getByText('Das Test-Ereignis wurde gesendet.').first()).toBeVisible();
  await expect.poll(() => verified(secret, 'webhook.test').length, { timeout: 20_000 }).toBe(3);
  await row.getByRole('button', { name: `Zustellungen an ${hookUrl}` }).click();
  await expect(log.getByTestId('deliveries-cards')).toBeVisible();
  await expect(async () => {
    await log.getByRole('button', { name: 'Aktualisieren' }).click();
    await expect(log.locator('[data-testid="delivery-row"][data-status="delivered"]')).toHaveCount(
      2,
      { timeout: 1000 },
    );
  }).toPass({ timeout: 20_000 });
  await expect(log.getByTestId('delivery-status').first()).toHaveText('Zugestellt');
  await expectNoSeriousViolations(page);
  // The dialog's own close button: on a phone the footer's lies under the toast of 'Test senden'
  // (bottom right) until it closes after 5 s.
  await log.getByRole('button', { name: 'Schließen' }).first().click();
  await expect(log).toBeHidden();

  // Deleting asks first.
  await row.getByRole('button', { name: `${hookUrl} löschen` }).click();
  const confirm = page.getByRole('dialog', { name: 'Webhook löschen' });
  await confirm.getByRole('button', { name: 'Endgültig löschen' }).click();
  await expect(page.getByText('Der Webhook wurde gelöscht.')).toBeVisible();
  await expect(page.getByText('Noch keine Webhooks')).toBeVisible();
});

test("a team's webhooks on the team page, for its owner", async ({ page }) => {
  test.setTimeout(60_000);
  await devLogin(page, 'hakenteam', '/teams');
  await page.getByLabel('Name des neuen Teams').fill('Haken-Team');
  await page.getByRole('button', { name: 'Team erstellen' }).click();
  await expect(page).toHaveURL(/\/teams\/[^/?]+$/);
  const section = page.getByTestId('team-webhooks');
  await expect(section.getByRole('heading', { name: 'Webhooks', level: 2 })).toBeVisible();
  await expect(section.getByText('Noch keine Webhooks')).toBeVisible();
  await section.getByRole('button', { name: 'Neuer Webhook' }).click();
  await expect(page.getByTestId('webhook-team-fixed')).toHaveText(
    'Der Webhook gehört zum Team Haken-Team.',
  );
  await page.getByRole('button', { name: 'Abbrechen' }).click();
  const secret = await createWebhook(page, `${hookUrl}/team`, [
    'Link-Zustand geändert short.health_changed',
  ]);
  await expect(
    section.locator(`[data-testid="webhook-row"][data-url="${hookUrl}/team"]`),
  ).toBeVisible();

  // The account's page lists it with its team.
  await page.goto('/account/webhooks');
  const row = page.locator(`[data-testid="webhook-row"][data-url="${hookUrl}/team"]`);
  await expect(row).toContainText('Haken-Team');
  await row.getByRole('button', { name: `Test senden an ${hookUrl}/team` }).click();
  await expect.poll(() => verified(secret, 'webhook.test').length, { timeout: 20_000 }).toBe(1);
});
