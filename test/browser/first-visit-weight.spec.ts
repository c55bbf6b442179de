import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { BASE } from './support';

/**
 * Issue 40, 12: the first visit's weight. `npm run budget` counts what index.html names (the entry and
 * its preloads); a visit also loads what the start page imports on the way (its route, the catalogue,
 * the flags client…). This counts every script a first visitor's browser (no cookies, nothing given)
 * asks for until the network is idle, at the size the server sends it (the build's .gz), against the
 * same 130 KB gzip.
 */
const BUDGET_BYTES = 130 * 1000;
const WEB_DIR = process.env.BROWSER_WEB_DIR ?? 'dist/web';

function gzipBytes(pathname: string): number {
  const file = join(WEB_DIR, pathname.replace(/^\//, ''));
  if (existsSync(`${file}.gz`)) return readFileSync(`${file}.gz`).length;
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

for (const path of ['/', '/login']) {
  test(`the first visit of ${path} loads at most 130 KB gzip of scripts before it is idle`, async ({
    browser,
  }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const scripts = new Set<string>();
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (req.resourceType() === 'script' && url.origin === BASE) scripts.add(url.pathname);
    });
    await page.goto(BASE + path, { waitUntil: 'networkidle' });
    await expect(page.locator('main')).toBeVisible();
    const sizes = [...scripts].map((p) => ({ script: p, gzip: gzipBytes(p) }));
    const total = sizes.reduce((sum, s) => sum + s.gzip, 0);
    test.info().annotations.push({
      type: 'weight',
      description: `${scripts.size} scripts, ${(total / 1000).toFixed(1)} KB gzip: ${sizes
        .map((s) => `${s.script} ${(s.gzip / 1000).toFixed(1)}`)
        .join(', ')}`,
    });
    expect(scripts.size).toBeGreaterThan(0);
    expect(total, sizes.map((s) => `${s.script} ${s.gzip}`).join('\n')).toBeLessThanOrEqual(
      BUDGET_BYTES,
    );
    await context.close();
  });
}
