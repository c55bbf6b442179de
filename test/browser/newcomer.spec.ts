import { expect, test } from '@playwright/test';
import {
  BASE,
  beforeEachRejectAll,
  createOwn,
  createShort,
  expectNoSeriousViolations,
  giveConsent,
  logIn,
  markExpired,
  navigateFrom,
  PERSON_UA,
  TARGET_HOST,
} from './support';

// Issue 20, "The product as a newcomer meets it": statistics for owners without opt-in (1), the
// created link on a phone (2), one click to follow (4), a dead link that says what happened (5).
// Every test rejects all cookies, as a newcomer may.

const SCHEMES = ['light', 'dark'] as const;

/** The page's window, for what runs in the browser (the tests compile without the DOM types). */
interface Win {
  localStorage: { getItem(k: string): string | null };
  navigator: { share?: unknown; clipboard: { readText(): Promise<string> } };
  getComputedStyle(e: unknown): { fontSize: string };
}

beforeEachRejectAll();

test.describe('1: owners reach their statistics', () => {
  for (const scheme of SCHEMES) {
    test(`no experiment switch, no consent: the tab is at the top, rows show their share (${scheme}, axe)`, async ({
      page,
    }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await logIn(page, `neu-${scheme}`);
      const code = await createOwn(page, { url: `https://${TARGET_HOST}/neu` });
      // Two visits from a person, one from Google.
      for (const referer of ['https://www.google.com/', undefined]) {
        const res = await page.request.get(`${BASE}/s/${code}`, {
          headers: { 'user-agent': PERSON_UA, ...(referer ? { referer } : {}) },
          maxRedirects: 0,
        });
        expect(res.status()).toBe(302);
      }
      // The visits reach the statistics in a batch (about every second).
      const info = await page.request.get(`${BASE}/api/code/${code}?redirect=false`);
      const { id } = (await info.json()) as { id: string };
      await expect
        .poll(async () => {
          const s = await page.request.get(`${BASE}/api/code/${id}/statistics`);
          return ((await s.json()) as { total: { visits: number } }).total.visits;
        })
        .toBe(2);
      await page.goto(`/s/${code}/info`);
      // No experiment was switched on (and could not be: the cookies are rejected).
      expect(
        await page.evaluate(() => (globalThis as unknown as Win).localStorage.getItem('flags')),
      ).toBeNull();
      const tab = page.getByRole('tab', { name: 'Statistiken' });
      await expect(tab).toBeVisible();
      // Near the top: above the short's fields, not under them.
      const tabBox = (await tab.boundingBox())!;
      const codeBox = (await page.getByLabel('Code', { exact: true }).boundingBox())!;
      expect(tabBox.y).toBeLessThan(codeBox.y);
      await expect(page.getByText('coming soon')).toHaveCount(0);

      await tab.click();
      await expect(page).toHaveURL(/[?&]tab=statistics/);
      const panel = page.getByTestId('stats-panel');
      await expect(panel.getByTestId('stats-total-visits')).toHaveText('2');
      const referrers = panel.getByTestId('stats-referrers');
      await expect(referrers.getByRole('row', { name: /^google\.com 1 50\s%$/ })).toBeVisible();
      await expect(
        referrers.getByRole('row', { name: /^Direkt \(ohne Verweis\) 1 50\s%$/ }),
      ).toBeVisible();
      await expect(referrers.locator('.progress-bar').first()).toHaveCSS('width', /\d/);
      await page.screenshot({
        path: `test-results/screenshots/newcomer-statistics-${scheme}.png`,
        fullPage: true,
      });
      await expectNoSeriousViolations(page);

      await page.getByRole('tab', { name: 'Beschwerden' }).click();
      await expect(page.getByTestId('complaints-body')).toHaveText(
        'Zu diesem Short gibt es keine Beschwerden.',
      );
      await page.getByRole('tab', { name: 'Übersicht' }).click();
      await expect(page).not.toHaveURL(/tab=/);
      await expect(page.getByLabel('Code', { exact: true })).toHaveValue(code);
    });
  }

  test('an admin sees the statistics of another user’s short', async ({ page, browser }) => {
    const other = await browser.newContext({ baseURL: BASE });
    const otherPage = await other.newPage();
    await logIn(otherPage, 'fremde-besitzerin');
    const code = await createOwn(otherPage, { url: `https://${TARGET_HOST}/fremd` });
    await other.close();
    await logIn(page, 'admin');
    await page.goto(`/s/${code}/info`);
    await page.getByRole('tab', { name: 'Statistiken' }).click();
    await expect(page.getByTestId('stats-total-visits')).toHaveText('0');
  });
});

test.describe('2: the created link on a phone (390×844)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  for (const scheme of SCHEMES) {
    test(`the link full-width in large type, Kopieren under it, QR-Code beside, success said once (${scheme}, axe)`, async ({
      page,
      context,
    }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
      await page.goto('/');
      await page.getByLabel('URL', { exact: true }).fill(`https://${TARGET_HOST}/handy`);
      await page.getByRole('button', { name: 'Kürzen' }).click();
      await expect(page).toHaveURL(/\/s\/[^/]+\/info\?show_created=true$/);
      const code = /\/s\/([^/]+)\/info/.exec(page.url())![1];
      const banner = page.getByTestId('created-banner');
      const link = banner.getByTestId('created-link');
      // The create answer's shortUrl, whole: not cut, not scrolled.
      await expect(link).toHaveText(`${BASE}/s/${code}`);
      const fits = await link.evaluate((el) => {
        const e = el as unknown as { scrollWidth: number; clientWidth: number };
        return e.scrollWidth <= e.clientWidth;
      });
      expect(fits).toBe(true);
      const linkBox = (await link.boundingBox())!;
      const bannerBox = (await banner.boundingBox())!;
      expect(linkBox.width).toBeGreaterThan(bannerBox.width * 0.8);
      const fontSize = await link.evaluate((el) =>
        parseFloat((globalThis as unknown as Win).getComputedStyle(el).fontSize),
      );
      expect(fontSize).toBeGreaterThanOrEqual(20);
      const copy = banner.getByRole('button', { name: 'Kopieren' });
      const qr = banner.getByRole('button', { name: 'QR-Code' });
      const copyBox = (await copy.boundingBox())!;
      const qrBox = (await qr.boundingBox())!;
      expect(copyBox.y).toBeGreaterThanOrEqual(linkBox.y + linkBox.height);
      expect(Math.abs(qrBox.y - copyBox.y)).toBeLessThan(4);
      expect(qrBox.x).toBeGreaterThan(copyBox.x);
      // No share menu in this browser: no 'Teilen' (it would fail with 'Fehler beim öffnen des Menüs').
      expect(await page.evaluate(() => typeof (globalThis as unknown as Win).navigator.share)).toBe(
        'undefined',
      );
      await expect(page.getByRole('button', { name: 'Teilen' })).toHaveCount(0);
      // Said once, and the buttons once.
      await expect(page.getByText('Der Short wurde erfolgreich erstellt')).toHaveCount(1);
      await expect(page.getByRole('button', { name: 'Kopieren' })).toHaveCount(1);
      await expect(page.getByRole('button', { name: 'QR-Code' })).toHaveCount(1);
      await page.screenshot({ path: `test-results/screenshots/newcomer-created-${scheme}.png` });
      await expectNoSeriousViolations(page);

      await copy.click();
      await expect(page.getByText('Link wurde kopiert.')).toBeVisible();
      expect(
        await page.evaluate(() => (globalThis as unknown as Win).navigator.clipboard.readText()),
      ).toBe(`${BASE}/s/${code}`);
    });
  }

  test('where the browser has a share menu, Teilen opens it with the link', async ({ page }) => {
    await page.addInitScript(() => {
      const shared: unknown[] = [];
      Object.assign(globalThis, { shared });
      Object.defineProperty((globalThis as unknown as Win).navigator, 'share', {
        value: (data: unknown) => {
          shared.push(data);
          return Promise.resolve();
        },
      });
    });
    await page.goto('/');
    await page.getByLabel('URL', { exact: true }).fill(`https://${TARGET_HOST}/teilen`);
    await page.getByRole('button', { name: 'Kürzen' }).click();
    await expect(page).toHaveURL(/show_created=true$/);
    const code = /\/s\/([^/]+)\/info/.exec(page.url())![1];
    await page.getByTestId('created-banner').getByRole('button', { name: 'Teilen' }).click();
    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as { shared: unknown[] }).shared))
      .toEqual([{ url: `${BASE}/s/${code}`, title: code }]);
    await expect(page.getByText('Fehler beim öffnen des Menüs')).toHaveCount(0);
  });
});

test.describe('4: following from the info page', () => {
  for (const scheme of SCHEMES) {
    test(`one click names the destination and goes there; no report dialog (${scheme}, axe)`, async ({
      page,
    }) => {
      await page.emulateMedia({ colorScheme: scheme });
      const res = await page.request.post(`${BASE}/api/code`, {
        data: { url: `https://${TARGET_HOST}/weiter?x=1` },
      });
      const { code } = (await res.json()) as { code: string };
      await page.goto(`/s/${code}/info`);
      const follow = page.getByRole('link', { name: `Weiter zu ${TARGET_HOST}` });
      await expect(follow).toBeVisible();
      await expect(page.getByRole('button', { name: 'Link öffnen' })).toHaveCount(0);
      await expectNoSeriousViolations(page);
      await follow.click();
      await expect(page).toHaveURL(`https://${TARGET_HOST}/weiter?x=1`);
      await expect(page.getByRole('heading', { name: 'Zielseite /weiter' })).toBeVisible();
      await page.goBack();
      await expect(page).toHaveURL(new RegExp(`/s/${code}/info$`));
      await expect(page.getByRole('dialog')).toHaveCount(0);
    });
  }

  test('the owner follows without being asked to report; a hidden target reads Link öffnen', async ({
    page,
    browser,
  }) => {
    await logIn(page, 'folger');
    const code = await createOwn(page, { url: `https://${TARGET_HOST}/eigen` });
    await page.goto(`/s/${code}/info`);
    await page.getByRole('link', { name: `Weiter zu ${TARGET_HOST}` }).click();
    await expect(page).toHaveURL(`https://${TARGET_HOST}/eigen`);
    await page.goBack();
    await expect(page.getByRole('dialog', { name: 'Short melden' })).toHaveCount(0);
    await expect(page).not.toHaveURL(/show_report/);
    // A password hides the target from strangers: the button cannot name it.
    const res = await page.request.post(`${BASE}/api/code`, {
      data: { url: `https://${TARGET_HOST}/geheim`, password: 'pw-1234' },
      headers: { Origin: BASE },
    });
    const hidden = ((await res.json()) as { code: string }).code;
    // A stranger: a context of its own (clearing this one's cookies races with answers still
    // under way that set the rolling session cookie again).
    const strangers = await browser.newContext();
    try {
      await giveConsent(strangers, false);
      const stranger = await strangers.newPage();
      await stranger.goto(`${BASE}/s/${hidden}/info`);
      await expect(stranger.getByRole('button', { name: 'Benutzermenü' })).toHaveCount(0);
      const open = stranger.getByRole('link', { name: 'Link öffnen' });
      await expect(open).toBeVisible();
      await expect(stranger.getByText(TARGET_HOST)).toHaveCount(0);
      await open.click();
      await expect(stranger).toHaveURL(new RegExp(`/s/${hidden}/password-required$`));
    } finally {
      await strangers.close();
    }
  });
});

test.describe('5: a dead link says what happened', () => {
  for (const scheme of SCHEMES) {
    test(`expired, used up and unknown, each with a lookup and the way home (${scheme}, axe)`, async ({
      page,
    }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await logIn(page, `tot-${scheme}`);
      const expired = await createOwn(page, {
        url: `https://${TARGET_HOST}/abgelaufen`,
        expireAt: new Date(Date.now() + 86400_000).toISOString(),
      });
      markExpired(expired);
      const usedUp = await createOwn(page, { url: `https://${TARGET_HOST}/einmal`, maxUses: 1 });
      const alive = await createOwn(page, { url: `https://${TARGET_HOST}/lebt` });
      const once = await page.request.get(`${BASE}/s/${usedUp}`, {
        headers: { 'user-agent': PERSON_UA },
        maxRedirects: 0,
      });
      expect(once.headers()['location']).toBe(`https://${TARGET_HOST}/einmal`);
      // A stranger follows them. The page has opened nothing yet (logged in over HTTP): no call of
      // a page can answer after the cookies are cleared and set the rolling session cookie again.
      await page.context().clearCookies();
      await giveConsent(page.context(), false);

      const cases = [
        [
          expired,
          'expired',
          'Dieser Short ist abgelaufen',
          'war nur bis zu einem festen Zeitpunkt',
        ],
        [usedUp, 'used-up', 'Dieser Short ist aufgebraucht', 'alle Aufrufe sind verbraucht'],
        ['gibtsnicht9', null, 'Diesen Short gibt es nicht', 'Unter dem Code gibtsnicht9'],
      ] as const;
      for (const [code, reason, heading, text] of cases) {
        await page.goto(`/s/${code}`);
        await expect(page).toHaveURL(
          new RegExp(`/s/${code}/info\\?not_found=true${reason ? `&reason=${reason}` : ''}$`),
        );
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
        await expect(page.getByText(text)).toBeVisible();
        await expect(page.getByText('Fehler beim Laden der Short Information')).toHaveCount(0);
        await expect(page.getByRole('link', { name: 'Zur Startseite' })).toBeVisible();
        await expect(page.getByLabel('Short-Code oder Short-URL')).toBeVisible();
        // Nothing of the short beyond what happened: no target, no owner.
        await expect(page.getByText(TARGET_HOST)).toHaveCount(0);
        await expect(page.getByText(`tot-${scheme}`)).toHaveCount(0);
      }
      await page.screenshot({ path: `test-results/screenshots/newcomer-dead-link-${scheme}.png` });
      await expectNoSeriousViolations(page);

      // The lookup leads on; the way home too.
      await page.getByLabel('Short-Code oder Short-URL').fill(`${BASE}/s/${alive}`);
      await page.getByRole('button', { name: 'Nachschlagen' }).click();
      await expect(page).toHaveURL(new RegExp(`/s/${alive}/info$`));
      await expect(page.getByLabel('Code', { exact: true })).toHaveValue(alive);
      await page.goto('/s/gibtsnicht9/not-found');
      await page.getByRole('link', { name: 'Zur Startseite' }).click();
      await expect(page).toHaveURL(`${BASE}/`);
    });
  }

  test('a made-up reason is ignored', async ({ page }) => {
    await page.goto('/s/gibtsnicht8/not-found?reason=<b>hacked</b>');
    await expect(page).toHaveURL(/\/s\/gibtsnicht8\/info\?not_found=true&reason=/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Diesen Short gibt es nicht');
    await expect(page.getByText('hacked')).toHaveCount(0);
  });
});

/**
 * Issue 40, the newcomer's second walk (cookies rejected): no console errors on anonymous pages
 * (7), /{code} on the main host (8), the logged-in start page with the latest shorts (3).
 */
test.describe('40: the second walk', () => {
  test('anonymous pages log no console error and ask nothing that answers 401', async ({
    page,
  }) => {
    const code = await createShort(page.request, { url: `https://${TARGET_HOST}/ruhig` });
    const errors: string[] = [];
    const failed: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    const calls: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path === '/api/account' || path === '/api/logged-in') calls.push(path);
    });
    for (const path of ['/', '/s', `/s/${code}/info`, '/login', '/shorts']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
    }
    // /shorts sent the visitor to the login page (no 401 on the way).
    await expect(page).toHaveURL(/\/login$/);
    expect(errors).toEqual([]);
    expect(failed).toEqual([]);
    expect(calls.length).toBeGreaterThanOrEqual(5);
    expect(calls).not.toContain('/api/account');
  });

  test('/{code} on the main host follows as /s/{code}; a page of the client stays a page', async ({
    page,
  }) => {
    const code = await createShort(page.request, { url: `https://${TARGET_HOST}/kurz` });
    await page.goto('/');
    await navigateFrom(page, `/${code}`);
    await expect(page).toHaveURL(`https://${TARGET_HOST}/kurz`);
    await expect(page.getByRole('heading', { name: 'Zielseite /kurz' })).toBeVisible();
    // An unknown code: the not-found answer of /s/{code}, not the start page.
    await page.goto('/');
    await navigateFrom(page, '/unbekannt42');
    await expect(page).toHaveURL(/\/s\/unbekannt42\/info\?not_found=true$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Diesen Short gibt es nicht');
    await expect(page.getByText('Unter dem Code unbekannt42')).toBeVisible();
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Anmelden', level: 1 })).toBeVisible();
  });

  test("logged in, the start page shows the user's five latest shorts (axe)", async ({ page }) => {
    await logIn(page, 'neueste');
    const codes: string[] = [];
    for (let i = 1; i <= 6; i++)
      codes.push(
        await createOwn(page, { url: `https://${TARGET_HOST}/neu-${i}`, name: `Link ${i}` }),
      );
    await page.goto('/');
    const latest = page.getByTestId('latest-shorts');
    await expect(latest.getByRole('heading', { name: 'Deine neuesten Shorts' })).toBeVisible();
    const items = latest.getByTestId('latest-short');
    await expect(items).toHaveCount(5);
    // Newest first; the oldest of the six is left for the list of all.
    await expect(items.getByRole('link')).toHaveText([
      'Link 6',
      'Link 5',
      'Link 4',
      'Link 3',
      'Link 2',
    ]);
    await expect(items.first()).toContainText(`/s/${codes[5]} → https://${TARGET_HOST}/neu-6`);
    await expectNoSeriousViolations(page);
    await items.getByRole('link', { name: 'Link 6' }).click();
    await expect(page).toHaveURL(new RegExp(`/s/${codes[5]}/info$`));
    await page.goBack();
    await latest.getByRole('link', { name: 'Alle deine Shorts' }).click();
    await expect(page).toHaveURL(/\/shorts$/);
  });
});
