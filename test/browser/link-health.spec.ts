import { expect, test } from '@playwright/test';
import {
  beforeEachRejectAll,
  changeRow,
  createOwn,
  expectNoSeriousViolations,
  logIn,
  TARGET_HOST,
} from './support';

// Link health in the web client (issue 24): a broken short carries 'Defekt' in the own list, the
// list filters the broken ones, its info page tells the last checks and checks again on demand.

/** Marks a short broken in the app's SQLite database, as three failed checks would. */
function markBroken(code: string): void {
  changeRow(
    `UPDATE shorts SET health_state = 'broken', health_status = 404, health_failures = 3,
       health_checked_at = '2026-11-20 10:00:00.000', health_failing_since = '2026-11-18 10:00:00.000'
     WHERE code = ?`,
    code,
  );
}

beforeEachRejectAll();

test("a broken short: 'Defekt' in the list, the filter, its info page and 'Jetzt prüfen'", async ({
  page,
}) => {
  test.setTimeout(60_000);
  await logIn(page, 'linkpruefer');
  const broken = await createOwn(page, { url: `https://${TARGET_HOST}/weg`, name: 'kaputt' });
  const fine = await createOwn(page, { url: `https://${TARGET_HOST}/da`, name: 'heil' });
  markBroken(broken);

  await page.goto('/shorts');
  const row = (code: string) => page.locator(`[data-code="${code}"]`);
  await expect(row(broken).locator('[data-badge="broken"]')).toHaveText('Defekt');
  await expect(row(fine)).toBeVisible();
  await expect(row(fine).locator('[data-badge="broken"]')).toHaveCount(0);
  const onlyBroken = page.waitForRequest(
    (r) => new URL(r.url()).pathname === '/api/code' && r.url().includes('health=broken'),
  );
  await page.getByLabel('Nur defekte Links').check();
  await onlyBroken;
  await expect(row(fine)).toHaveCount(0);
  await expect(row(broken)).toBeVisible();

  await page.goto(`/s/${broken}/info`);
  const health = page.getByTestId('link-health');
  await expect(health).toContainText('Defekt');
  await expect(health).toContainText('Antwort: HTTP 404');
  await health.getByRole('button', { name: 'Jetzt prüfen' }).click();
  // The target is not reachable from the test server: the check says what it found, below.
  await expect(health.getByTestId('link-health-finding')).toHaveText(
    /^Geprüft: Das Ziel antwortet (nicht|mit HTTP \d+)\. |^Geprüft: Dieses Ziel darf der Dienst nicht abrufen/,
  );
  await expect(health.getByRole('status')).not.toBeEmpty();
  await expectNoSeriousViolations(page);
});

test("failing but not yet broken: one state, 'Fehlerhaft', never 'Unbekannt'; the filter without hits says so", async ({
  page,
}) => {
  await logIn(page, 'wackelkontakt');
  const code = await createOwn(page, { url: `https://${TARGET_HOST}/wackelt` });
  changeRow(
    `UPDATE shorts SET health_state = 'unknown', health_status = NULL, health_failures = 1,
       health_checked_at = '2026-11-20 10:00:00.000', health_failing_since = '2026-11-20 10:00:00.000'
     WHERE code = ?`,
    code,
  );
  await page.goto(`/s/${code}/info`);
  const health = page.getByTestId('link-health');
  await expect(health).toHaveAttribute('data-state', 'failing');
  await expect(health).toContainText('Fehlerhaft');
  await expect(health).toContainText('Keine Antwort');
  await expect(health).toContainText('nach 3 Fehlschlägen in Folge gilt der Link als defekt');
  await expect(health).not.toContainText('Unbekannt');

  await page.goto('/shorts');
  await expect(page.getByTestId('shorts-total')).toHaveText('1 Eintrag');
  await page.getByLabel('Nur defekte Links').check();
  await expect(page.getByTestId('shorts-empty')).toHaveText('Keine defekten Links');
  await expectNoSeriousViolations(page);
});
