import { expect, test, type Page } from '@playwright/test';
import { createPageShorts, giveConsent, seriousA11yViolations } from './support';

let code = '';
let pwCode = '';
let dangerCode = '';

test.beforeAll(async ({ request }) => {
  ({ code, pwCode, dangerCode } = await createPageShorts(
    request,
    ['seiten', 'seiten-pw', 'seiten-gefahr'],
    'seiten-pw',
  ));
});

const pages: { name: string; path: () => string; text: string | RegExp }[] = [
  { name: 'start', path: () => '/', text: 'Teile deine Links einfach und schnell' },
  { name: 'login', path: () => '/login', text: 'Anmelden' },
  { name: 'lookup', path: () => '/s', text: 'Short Information' },
  { name: 'info', path: () => `/s/${code}/info?show_created=true`, text: 'Short Information' },
  {
    name: 'info-not-found',
    path: () => '/s/fehlt123/info?not_found=true',
    text: 'Diesen Short gibt es nicht',
  },
  {
    name: 'dangerous',
    path: () => `/s/${dangerCode}/potentially-dangerous`,
    text: 'Potenziell gefährlicher Link',
  },
  {
    name: 'password',
    path: () => `/s/${pwCode}/password-required?wrong=true`,
    text: 'Passwort erforderlich',
  },
  { name: 'offline', path: () => '/service/offline', text: 'System nicht erreichbar' },
];

async function open(page: Page, path: string, heading: string | RegExp) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await page.waitForLoadState('networkidle');
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} mode`, () => {
    test.beforeEach(async ({ page, context }) => {
      await giveConsent(context, false);
      await page.emulateMedia({ colorScheme: scheme });
    });
    for (const p of pages) {
      test(`${p.name}: screenshot and no serious accessibility violations`, async ({ page }) => {
        await open(page, p.path(), p.text);
        if (scheme === 'dark') await expect(page.locator('html')).toHaveClass(/dark/);
        else await expect(page.locator('html')).not.toHaveClass(/dark/);
        await page.screenshot({
          path: `test-results/screenshots/${p.name}-${scheme}.png`,
          fullPage: true,
        });
        const violations = await seriousA11yViolations(page);
        expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
      });
    }
  });
}

test('cookie dialog screenshot and accessibility', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('dialog', { name: 'Cookie-Einstellungen' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/cookie-dialog-light.png' });
  const violations = await seriousA11yViolations(page);
  expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
});
