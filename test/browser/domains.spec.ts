import { expect, test, type Page } from '@playwright/test';
import { openAdvanced } from './create-form';
import {
  BASE,
  beforeEachRejectAll,
  giveConsent,
  logIn,
  seriousA11yViolations,
  TARGET_HOST,
} from './support';

// Own domains (CONTRACT "Own domains"): the account's Domains section, a short on a shared domain
// through the form, its link in the result and in the table. A user's domain stays pending (no DNS
// here); an admin's shared domain is verified at once, so it is the one shorts are put on.

const stamp = Date.now().toString(36);
const OWN = `meine-${stamp}.example`;
const SHARED = `geteilt-${stamp}.example`;
const REMEMBERED = `gemerkt-${stamp}.example`;

const section = (page: Page) => page.getByTestId('domains-panel');
const item = (page: Page, host: string) =>
  section(page).locator(`[data-testid="domain-item"][data-host="${host}"]`);

async function addDomain(page: Page, host: string, shared = false): Promise<void> {
  await section(page).getByLabel('Neue Domain').fill(host);
  if (shared)
    await section(page)
      .getByLabel(/Für alle freigeben/)
      .check();
  await section(page).getByRole('button', { name: 'Domain hinzufügen' }).click();
  await expect(page.getByText(`Die Domain ${host} wurde hinzugefügt.`)).toBeVisible();
}

// Shared domains are offered to every user: the other specs start without the ones made here.
test.afterAll(async ({ browser }) => {
  const context = await browser.newContext({ baseURL: BASE });
  await giveConsent(context, false);
  const page = await context.newPage();
  await logIn(page, 'admin');
  const headers = { Origin: BASE };
  const hosts = [SHARED, REMEMBERED];
  const own = await page.request.get('/api/code?size=250');
  for (const s of ((await own.json()) as { content: { id: string; domain: string | null }[] })
    .content) {
    if (s.domain && hosts.includes(s.domain))
      expect((await page.request.delete(`/api/code/${s.id}`, { headers })).status()).toBe(204);
  }
  const domains = (await (await page.request.get('/api/domains')).json()) as {
    id: string;
    host: string;
  }[];
  for (const d of domains.filter((x) => hosts.includes(x.host)))
    expect((await page.request.delete(`/api/domains/${d.id}`, { headers })).status()).toBe(204);
  await context.close();
});

beforeEachRejectAll();

test('a user adds a domain: pending with the TXT record to create; Jetzt prüfen says the outcome', async ({
  page,
}) => {
  await logIn(page, 'domain-nutzer');
  await page.goto('/account');
  await expect(section(page).getByRole('heading', { name: 'Domains' })).toBeVisible();
  await addDomain(page, OWN);

  const own = item(page, OWN);
  await expect(own.getByTestId('domain-state')).toHaveText('ausstehend');
  await expect(own.getByLabel('Name')).toHaveValue(`_url-shorter.${OWN}`);
  await expect(own.getByLabel('Wert')).toHaveValue(/^url-shorter-verify=[\w-]+$/);
  await expect(own.getByTestId('domain-instructions')).toContainText('CNAME-Eintrag auf 127.0.0.1');
  // Users add no shared domains.
  await expect(section(page).getByLabel(/Für alle freigeben/)).toHaveCount(0);

  const violations = await seriousA11yViolations(page);
  expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);

  // No TXT record exists: the check fails and says so (whatever the resolver answers).
  await own.getByRole('button', { name: `${OWN} jetzt prüfen` }).click();
  await expect(page.getByText(`Die Domain ${OWN} ist noch nicht verifiziert.`)).toBeVisible({
    timeout: 15_000,
  });
  await expect(own.getByTestId('domain-state')).toHaveText('ausstehend');
  await expect(own.getByTestId('domain-reason')).not.toBeEmpty();

  // A pending domain is offered nowhere.
  await expect(page.getByLabel('Domain der Shorts aus ShareX')).toHaveCount(0);
  await page.goto('/');
  await expect(page.getByLabel('URL', { exact: true })).toBeVisible();
  await openAdvanced(page);
  await expect(page.getByLabel('Domain', { exact: true })).toHaveCount(0);

  // Deleting asks first.
  await page.goto('/account');
  await item(page, OWN)
    .getByRole('button', { name: `${OWN} löschen` })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Domain löschen' });
  await expect(dialog).toContainText(`Möchtest du die Domain ${OWN} wirklich löschen?`);
  await dialog.getByRole('button', { name: 'Endgültig löschen' }).click();
  await expect(page.getByText(`Die Domain ${OWN} wurde gelöscht.`)).toBeVisible();
  await expect(item(page, OWN)).toHaveCount(0);
});

test('an admin adds a shared domain (verified at once); a short on it shows its domain link in the result and the table', async ({
  page,
}) => {
  test.setTimeout(60_000); // many steps on a shared machine
  await logIn(page, 'admin');
  await page.goto('/account');
  await addDomain(page, SHARED, true);
  const shared = item(page, SHARED);
  await expect(shared.getByTestId('domain-state')).toHaveText('verifiziert');
  await expect(shared.getByText('Geteilt', { exact: true })).toBeVisible();
  await expect(shared.getByTestId('domain-instructions')).toHaveCount(0);
  // ShareX may now create there.
  await expect(page.getByLabel('Domain der Shorts aus ShareX')).toBeVisible();

  // The form offers the main host first and the shared domain.
  await page.goto('/');
  await openAdvanced(page);
  const select = page.getByLabel('Domain', { exact: true });
  await expect(select.locator('option').first()).toHaveText('Diese Domain (Standard)');
  await select.selectOption(SHARED);
  await page.getByLabel('URL', { exact: true }).fill(`https://${TARGET_HOST}/domain`);
  const name = `auf-domain-${stamp}`;
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Kürzen' }).click();
  // The new short's info page (on the main host, naming the domain) shows its domain link.
  await expect(page).toHaveURL(new RegExp(`/info\\?show_created=true&domain=${SHARED}$`));
  const link = page.getByTestId('created-link');
  await expect(link).toHaveText(new RegExp(`^http://${SHARED.replace(/\./g, '\\.')}/[\\w-]+$`));
  const shortUrl = (await link.textContent())!;
  const code = shortUrl.split('/').at(-1)!;

  const violations = await seriousA11yViolations(page);
  expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);

  // The table: Domain and Short-Link are hidden by default.
  await page.goto('/shorts');
  const row = page.locator(`[data-testid="short-row"][data-code="${code}"]`);
  await expect(row).toBeVisible();
  await expect(row.locator('[data-column="domain"]')).toHaveCount(0);
  await page.getByRole('button', { name: 'Spalten' }).click();
  // In place of two default columns, so the table keeps fitting at 1280 px (else cards).
  await page.getByLabel('Url', { exact: true }).uncheck();
  await page.getByLabel('Erstellt am', { exact: true }).uncheck();
  await page.getByLabel('Domain', { exact: true }).check();
  await page.getByLabel('Short-Link', { exact: true }).check();
  await page.keyboard.press('Escape');
  await expect(row.locator('[data-column="domain"]')).toHaveText(SHARED);
  await expect(row.locator('[data-column="shortUrl"]')).toHaveText(shortUrl);
  // Its info page is here, naming its domain.
  await expect(row.locator('[data-column="code"] a')).toHaveAttribute(
    'href',
    `/s/${code}/info?domain=${SHARED}`,
  );
  // The domain filter asks the server for one domain's shorts, or the main host's.
  const filter = page.getByLabel('Nach Domain filtern');
  await filter.selectOption('Standard');
  await expect(row).toHaveCount(0);
  await filter.selectOption(SHARED);
  await expect(row).toBeVisible();
  await expect(page.locator('[data-testid="short-row"] [data-column="domain"]')).toHaveText([
    SHARED,
  ]);
  await filter.selectOption('Alle Domains');
  await expect(row).toBeVisible();
  // Its info page: the short on the domain, its link and the owner's statistics.
  await row.locator('[data-column="code"] a').click();
  await expect(page.getByTestId('follow-link')).toHaveAttribute('href', shortUrl);
  await page.getByRole('tab', { name: 'Statistiken' }).click();
  await expect(page).toHaveURL(new RegExp(`domain=${SHARED}`));
  await expect(page.getByTestId('statistics-body')).toBeVisible();

  // The next visit starts with no remembered choice (no design consent): the main host.
  await page.goto('/');
  await openAdvanced(page);
  await expect(page.getByLabel('Domain', { exact: true })).toHaveValue('');

  // A domain with shorts stays: its errorKey's text.
  await page.goto('/account');
  await item(page, SHARED)
    .getByRole('button', { name: `${SHARED} löschen` })
    .click();
  await page
    .getByRole('dialog', { name: 'Domain löschen' })
    .getByRole('button', { name: 'Endgültig löschen' })
    .click();
  await expect(
    page.getByText('Auf dieser Domain gibt es noch Shorts. Lösche oder verschiebe sie zuerst.'),
  ).toBeVisible();
  await expect(item(page, SHARED)).toHaveCount(1);
});

test('with the design consent the last domain is the next first choice', async ({
  page,
  context,
}) => {
  await giveConsent(context, true);
  await logIn(page, 'admin');
  await page.goto('/account');
  await addDomain(page, REMEMBERED, true);
  await page.goto('/');
  await openAdvanced(page);
  const select = page.getByLabel('Domain', { exact: true });
  await select.selectOption(REMEMBERED);
  await page.getByLabel('URL', { exact: true }).fill(`https://${TARGET_HOST}/wieder`);
  await page.getByRole('button', { name: 'Kürzen' }).click();
  await expect(page.getByTestId('created-link')).toHaveText(new RegExp(`^http://${REMEMBERED}/`));
  await page.goto('/');
  await page.reload();
  await openAdvanced(page);
  await expect(page.getByLabel('Domain', { exact: true })).toHaveValue(REMEMBERED);
});
