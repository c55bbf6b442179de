import { expect, test, type APIRequestContext, type Cookie } from '@playwright/test';
import {
  apiLogin,
  BASE,
  beforeEachRejectAll,
  expectNoSeriousViolations,
  PERSON_UA,
  TARGET_HOST,
} from './support';

// Link pages (CONTRACT "Marketing links", bullet "Link pages"): the editor at /account?view=pages
// chooses shorts, labels and orders them, picks the colours and shows a live preview; the public
// page /p/{slug} lists the links in that order and follows each through its short (counted), and
// its views show in the page's statistics — on the desktop (dark page) and on a phone (light
// page), each public page checked with axe once.

const PHONE = { width: 390, height: 844 };
const USER = 'link-pager';
const DEVICES = ['desktop', 'phone'] as const;
type Device = (typeof DEVICES)[number];

/** A short of the walk: its id (statistics), its code, its name (what the page shows unlabelled). */
interface Made {
  id: string;
  code: string;
  name: string;
}

// Headless Chromium says "HeadlessChrome", a bot: its views and follows would count as bots'.
test.use({ userAgent: PERSON_UA });

/** The session of the one login of this file, and each walk's three shorts (Alpha, Beta, Gamma). */
let cookies: Cookie[] = [];
const shorts = {} as Record<Device, Made[]>;

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext({
    baseURL: BASE,
    userAgent: PERSON_UA,
    extraHTTPHeaders: { Origin: BASE },
  });
  await apiLogin(context.request, USER);
  for (const device of DEVICES) {
    shorts[device] = [];
    for (const name of ['Alpha', 'Beta', 'Gamma']) {
      const res = await context.request.post(`${BASE}/api/code`, {
        data: { url: `https://${TARGET_HOST}/${device}/${name}`, name: `${name} ${device}` },
      });
      expect(res.status(), await res.text()).toBe(201);
      const { code } = (await res.json()) as { code: string };
      const info = await context.request.get(`${BASE}/api/code/${code}?redirect=false`);
      const { id } = (await info.json()) as { id: string };
      shorts[device].push({ id, code, name: `${name} ${device}` });
    }
  }
  cookies = await context.cookies();
  await context.close();
});

beforeEachRejectAll();
test.beforeEach(async ({ context }) => {
  await context.addCookies(cookies);
});

/** A figure of a statistics answer (views of a page, visits of a short), once written. */
async function total(request: APIRequestContext, path: string): Promise<number> {
  const res = await request.get(`${BASE}${path}`);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { total: { visits: number } }).total.visits;
}

for (const device of DEVICES) {
  const theme = device === 'desktop' ? 'dark' : 'light';
  test(`link page on the ${device}: choose, label, order, preview, save; /p/ in ${theme}, followed and counted`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    if (device === 'phone') await page.setViewportSize(PHONE);
    const [alpha, beta, gamma] = shorts[device];
    const slug = `herbst-${device}`;
    const title = `Herbst ${device}`;
    const shown = (s: Made) => `${s.name} (${s.code})`;

    await page.goto('/account?view=pages');
    await expect(page.getByRole('heading', { name: 'Link-Seiten', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Neue Link-Seite' }).click();
    const form = page.getByRole('form', { name: 'Neue Link-Seite anlegen' });
    await form.getByLabel('Adresse').fill(slug);
    await form.getByLabel('Titel').fill(title);
    await form.getByLabel('Beschreibung (optional)').fill('Alles zum Herbst');
    const add = form.getByLabel('Short hinzufügen');
    for (const s of [alpha, beta, gamma]) {
      await expect(add.locator('option', { hasText: shown(s) })).toHaveCount(1);
      await add.selectOption({ label: shown(s) });
    }
    await form.getByLabel(`Beschriftung (optional): ${shown(beta)}`).fill('Zum Beta-Angebot');
    // Beta first, then Alpha (by its name), then Gamma.
    await form.getByRole('button', { name: `Nach oben: ${shown(beta)}` }).click();
    await expect(form.getByRole('button', { name: `Nach oben: ${shown(beta)}` })).toBeDisabled();
    await form.getByLabel('Farben').selectOption(theme);

    // The preview shows the unsaved page as it will look.
    const preview = page.getByTestId('page-preview');
    await expect(preview).toHaveAttribute('data-theme', theme);
    await expect(page.getByTestId('page-preview-title')).toHaveText(title);
    await expect(page.getByTestId('page-preview-description')).toHaveText('Alles zum Herbst');
    const order = ['Zum Beta-Angebot', alpha.name, gamma.name];
    await expect(page.getByTestId('page-preview-link')).toHaveText(order);
    await preview.scrollIntoViewIfNeeded();
    await expect(preview).toBeInViewport();

    await form.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Link-Seite gespeichert')).toBeVisible();
    const list = page.getByTestId('pages-list');
    await expect(list.getByRole('link', { name: `${BASE}/p/${slug}` })).toBeVisible();
    const listed = await page.request.get(`${BASE}/api/pages`);
    const pageId = ((await listed.json()) as { id: string; slug: string }[]).find(
      (p) => p.slug === slug,
    )?.id;
    expect(pageId).toBeTruthy();

    // The public page: the links in order, each through its short, in the chosen colours.
    await page.goto(`/p/${slug}`);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    const links = page.locator('a.link');
    await expect(links).toHaveText(order);
    const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual([beta, alpha, gamma].map((s) => `${BASE}/s/${s.code}`));
    await expectNoSeriousViolations(page);

    // Following a link reaches the short's target, and the short counts the visit.
    await links.first().click();
    await expect(page.getByRole('heading', { name: `Zielseite /${device}/Beta` })).toBeVisible();
    await expect.poll(() => total(page.request, `/api/code/${beta.id}/statistics`)).toBe(1);

    // The page's owner sees the view in the page's statistics (views are written every second).
    await expect.poll(() => total(page.request, `/api/pages/${pageId}/statistics`)).toBe(1);
    await page.goto('/account?view=pages');
    await page.getByRole('link', { name: `Statistik: ${title}` }).click();
    await expect(
      page.getByRole('heading', { name: `Statistik der Link-Seite „${title}“` }),
    ).toBeVisible();
    await expect(page).toHaveURL(`${BASE}/account?view=pages&stats=${pageId}`);
    await expect(page.getByTestId('stats-total-visits')).toHaveText('1');
    await expect(page.getByTestId('stats-total-bots')).toHaveText('0');
    await expect(page.getByTestId('stats-total-visitors')).toHaveCount(0);
    await expect(page.getByTestId('stats-chart')).toBeVisible();
  });
}
