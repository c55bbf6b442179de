import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import ts from 'typescript';
import { createPageShorts, giveConsent, seriousA11yViolations, TARGET_HOST } from './support';
import { catalogueTexts as texts } from '../../web/src/i18n/texts';

// Issue 23: the whole client in English. The main instance runs with the default flags, where the
// language switch is on (issue 40); a browser that prefers English gets English on its first visit.

type Catalogue = Record<string, unknown>;
/**
 * A catalogue of the web client, read from its source: the areas of i18n/<name>/ (client modules:
 * transpiled here, their imports are types only), merged like its index.ts does.
 */
function catalogue(name: 'de' | 'en'): Catalogue {
  const dir = join(__dirname, `../../web/src/i18n/${name}`);
  const merged: Catalogue = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'index.ts')) {
    const js = ts.transpileModule(readFileSync(join(dir, file), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const mod = { exports: {} as Record<string, Catalogue> };
    new Function('exports', 'module', js)(mod.exports, mod);
    for (const area of Object.values(mod.exports)) Object.assign(merged, area);
  }
  return merged;
}

/**
 * The German catalogue's own wording: every text (and every part of it between placeholders)
 * that is no English text as well ('Code', 'Admin', 'Browser' are both).
 */
let german: string[] = [];
test.beforeAll(() => {
  const [de, en] = [texts(catalogue('de')), texts(catalogue('en'))];
  const english = new Set(en.values());
  const parts = new Set<string>();
  for (const [path, text] of de) {
    if (en.get(path) === text || english.has(text)) continue;
    for (const part of text.split(/\{\w+\}/)) {
      const p = part.trim().replace(/^[:,.–(]+\s*|\s*[:,.–)]+$/g, '');
      if (p.length >= 3 && !english.has(p) && ![...english].some((e) => e.includes(p)))
        parts.add(p);
    }
  }
  german = [...parts];
  expect(german).toContain('Teile deine Links einfach und schnell');
  expect(german.length).toBeGreaterThan(400);
});

/** What a reader (or a screen reader) meets: the visible text, labels, placeholders, the title. */
async function shownText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const d = (globalThis as unknown as { document: any }).document;
    const attrs = [...d.querySelectorAll('[aria-label],[placeholder],[title],[alt]')].flatMap(
      (el: any) =>
        ['aria-label', 'placeholder', 'title', 'alt'].map((a) => el.getAttribute(a) ?? ''),
    );
    return [d.title, d.body.innerText, ...attrs].join('\n');
  });
}

async function expectNoGerman(page: Page, screen: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  const shown = await shownText(page);
  const found = german.filter((g) =>
    new RegExp(
      `(?<![\\p{L}\\p{N}])${g.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`,
      'u',
    ).test(shown),
  );
  expect(found, `German on the ${screen} screen`).toEqual([]);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
}

async function expectAxeClean(page: Page): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const violations = await seriousA11yViolations(page);
    expect(violations, `${scheme}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
  }
}

let code = '';
let pwCode = '';
let dangerCode = '';

test.describe('in English', () => {
  test.use({ locale: 'en-US' });

  test.beforeAll(async ({ request }) => {
    ({ code, pwCode, dangerCode } = await createPageShorts(
      request,
      ['english', 'english-pw', 'english-danger'],
      'pw-en',
    ));
  });

  test.beforeEach(async ({ context }) => {
    // Every screen twice through axe (light and dark).
    test.setTimeout(180_000);
    await giveConsent(context, false);
  });

  test('the pages of a visitor: start, result, lookup, info, password, not-found, dangerous, login', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Share your links simply and quickly' }),
    ).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Language' })).toHaveValue('en');
    await expectNoGerman(page, 'start');
    await expectAxeClean(page);

    await page.getByRole('button', { name: 'Manage cookies' }).click();
    await expect(page.getByRole('dialog', { name: 'Cookie settings' })).toBeVisible();
    await expectNoGerman(page, 'cookie dialog');
    await expectAxeClean(page);
    await page
      .getByRole('dialog', { name: 'Cookie settings' })
      .getByRole('button', { name: 'Reject all' })
      .click();
    await expect(page.getByRole('dialog', { name: 'Cookie settings' })).toHaveCount(0);

    await page.getByLabel('URL', { exact: true }).fill(`https://${TARGET_HOST}/result`);
    await page.getByRole('button', { name: 'Shorten', exact: true }).click();
    await expect(page.getByTestId('created-banner')).toContainText('The short was created');
    await expectNoGerman(page, 'result');
    await expectAxeClean(page);

    const screens: [string, string, string][] = [
      ['lookup', '/s', 'Short information'],
      ['info', `/s/${code}/info`, 'Short information'],
      ['password', `/s/${pwCode}/password-required?wrong=true`, 'Password required'],
      ['not-found', '/s/missing123/info?not_found=true', 'This short does not exist'],
      ['dangerous', `/s/${dangerCode}/potentially-dangerous`, 'Potentially dangerous link'],
      ['login', '/login', 'Log in'],
      ['offline', '/service/offline', 'System unreachable'],
    ];
    for (const [name, path, heading] of screens) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expectNoGerman(page, name);
      await expectAxeClean(page);
    }
  });

  test('the pages of a user: expiry, statistics, shorts table, dialogs, account, API key', async ({
    page,
  }) => {
    await page.goto('/api/auth/dev?username=english&redirect=/');
    await expect(page.getByRole('button', { name: 'User menu' })).toHaveText('english');
    await page.getByLabel('URL', { exact: true }).fill(`https://${TARGET_HOST}/mine`);
    await page.getByLabel('Expiry date').fill('tomorrow at 3pm');
    await expect(page.getByText(/^Understood as: /)).toContainText('3:00 PM');
    await expectNoGerman(page, 'start (logged in)');
    await page.getByRole('button', { name: 'Shorten', exact: true }).click();
    await expect(page.getByTestId('created-banner')).toBeVisible();
    await page.getByRole('tab', { name: 'Statistics' }).click();
    await expect(
      page.getByRole('radio', { name: '7 days' }).or(page.getByText('No visits yet').first()),
    ).toBeVisible();
    await expectNoGerman(page, 'statistics');
    await expectAxeClean(page);

    await page.goto('/shorts');
    await expect(page.getByRole('heading', { level: 1, name: 'Your shorts' })).toBeVisible();
    await expectNoGerman(page, 'shorts table');
    await expectAxeClean(page);
    const row = page.getByTestId('short-row').first();
    const mine = await row.getAttribute('data-code');
    await page.getByRole('button', { name: `Edit ${mine}` }).click();
    await expect(page.getByRole('dialog', { name: 'Edit short' })).toBeVisible();
    await expectNoGerman(page, 'edit dialog');
    await expectAxeClean(page);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: `Show the QR code of ${mine}` }).click();
    await expect(page.getByRole('dialog', { name: 'QR code' })).toBeVisible();
    await expectNoGerman(page, 'QR dialog');
    await page
      .getByRole('dialog', { name: 'QR code' })
      .getByRole('button', { name: 'Close' })
      .first()
      .click();
    await page.getByRole('button', { name: 'Import' }).click();
    await expect(page.getByRole('dialog', { name: 'Import shorts' })).toBeVisible();
    await expectNoGerman(page, 'import dialog');
    await expectAxeClean(page);
    await page.keyboard.press('Escape');

    await page.goto('/account');
    await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
    await page.getByRole('button', { name: 'Generate API key' }).click();
    const confirm = page.getByRole('dialog', { name: 'Generate a new API key' });
    await expect(confirm).toContainText('Do you really want to generate a new API key?');
    await expectNoGerman(page, 'API key confirmation');
    await confirm.getByRole('button', { name: 'Generate API key' }).click();
    await expect(page.getByText('The API key was generated!')).toBeVisible();
    await expectNoGerman(page, 'account');
    await expectAxeClean(page);
  });

  test('the admin area', async ({ page }) => {
    await page.goto('/api/auth/dev?username=admin&redirect=/admin');
    await expect(page.getByRole('heading', { level: 1, name: 'Administration' })).toBeVisible();
    await expectNoGerman(page, 'admin');
    await expectAxeClean(page);
  });
});

test.describe('in German', () => {
  test.use({ locale: 'de-DE' });

  test.beforeEach(async ({ page, context }) => {
    await giveConsent(context, false);
    await page.goto('/');
  });

  test('the spec strings stay, and the footer switches to English at once, without a reload', async ({
    page,
  }) => {
    await expect(
      page.getByRole('heading', { level: 1, name: 'Teile deine Links einfach und schnell' }),
    ).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('link', { name: 'Link verfolgen' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Anmelden', exact: true })).toBeVisible();
    await page.evaluate(() => {
      (globalThis as unknown as { stillHere: boolean }).stillHere = true;
    });
    await page.getByRole('combobox', { name: 'Sprache' }).selectOption('en');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Share your links simply and quickly' }),
    ).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    expect(
      await page.evaluate(() => (globalThis as unknown as { stillHere?: boolean }).stillHere),
    ).toBe(true);
    // Remembered: the next visit is English although the browser prefers German.
    await page.reload();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Share your links simply and quickly' }),
    ).toBeVisible();
    await page.getByRole('combobox', { name: 'Language' }).selectOption('de');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Teile deine Links einfach und schnell' }),
    ).toBeVisible();
    expect(
      await page.evaluate(() =>
        (
          globalThis as unknown as { localStorage: { getItem(k: string): string | null } }
        ).localStorage.getItem('language'),
      ),
    ).toBe('de');
  });

  test('what was typed into the create form stays when the language changes', async ({ page }) => {
    const url = page.getByRole('textbox', { name: 'URL', exact: true });
    await url.fill(`https://${TARGET_HOST}/typed/before/the/switch`);
    await page.getByLabel('Passwort (optional)').fill('geheim');
    await page.getByRole('combobox', { name: 'Sprache' }).selectOption('en');
    await expect(page.getByRole('button', { name: 'Shorten' })).toBeVisible();
    await expect(url).toHaveValue(`https://${TARGET_HOST}/typed/before/the/switch`);
    await expect(page.getByLabel('Password (optional)')).toHaveValue('geheim');
    await page.getByRole('combobox', { name: 'Language' }).selectOption('de');
    await expect(page.getByRole('button', { name: 'Kürzen' })).toBeVisible();
    await expect(url).toHaveValue(`https://${TARGET_HOST}/typed/before/the/switch`);
  });
});

/** index.html's description as the page has it now. */
const description = (page: Page) =>
  page.locator('meta[name="description"]').getAttribute('content');

/**
 * Issue 40: a default instance (no FLAGS, DEFAULT_LANGUAGE unset) follows the browser on the first
 * visit, index.html's description included (as the server sends it and as the page keeps it);
 * German stays the fallback, DEFAULT_LANGUAGE the operator's choice for other languages.
 */
test.describe('the first visit of a default instance', () => {
  test.beforeEach(async ({ context }) => {
    await giveConsent(context, false);
  });

  test.describe('an English browser', () => {
    test.use({ locale: 'en-US' });
    test('gets English, index.html description included', async ({ page }) => {
      const res = await page.goto('/');
      // Before any script: the server chose by Accept-Language.
      const html = await res!.text();
      expect(html).toContain('<html lang="en">');
      expect(html).toContain(
        '<meta name="description" content="URL-Shorter: Share your links simply and quickly"',
      );
      await expect(
        page.getByRole('heading', { level: 1, name: 'Share your links simply and quickly' }),
      ).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      expect(await description(page)).toBe('URL-Shorter: Share your links simply and quickly');
      await expect(page).toHaveTitle('URL-Shorter: Share your links simply and quickly');
      await expect(page.getByRole('link', { name: 'Log in', exact: true })).toBeVisible();
    });
  });

  test.describe('a German browser', () => {
    test.use({ locale: 'de-DE' });
    test('gets German', async ({ page }) => {
      await page.goto('/');
      await expect(
        page.getByRole('heading', { level: 1, name: 'Teile deine Links einfach und schnell' }),
      ).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', 'de');
      expect(await description(page)).toBe('URL-Shorter: Teile deine Links einfach und schnell');
    });
  });

  test.describe('a French browser', () => {
    test.use({ locale: 'fr-FR' });
    test("gets the operator's DEFAULT_LANGUAGE: German by default, English where it is en", async ({
      page,
    }) => {
      await page.goto('/');
      await expect(
        page.getByRole('heading', { level: 1, name: 'Teile deine Links einfach und schnell' }),
      ).toBeVisible();
      expect(await description(page)).toBe('URL-Shorter: Teile deine Links einfach und schnell');
      // An operator who set DEFAULT_LANGUAGE=en (the island says so; the page is the same build).
      await page.route(
        (url) => url.pathname === '/',
        async (route) => {
          const res = await route.fetch();
          const body = (await res.text()).replace(
            '"defaultLanguage":"de"',
            '"defaultLanguage":"en"',
          );
          await route.fulfill({ response: res, body });
        },
      );
      await page.reload();
      await expect(
        page.getByRole('heading', { level: 1, name: 'Share your links simply and quickly' }),
      ).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      expect(await description(page)).toBe('URL-Shorter: Share your links simply and quickly');
    });
  });
});
