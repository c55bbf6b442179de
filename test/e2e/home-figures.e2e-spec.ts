import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { loginAs } from '../support/login';
import { insertShorts } from '../support/shorts';

/** A built client of one index.html, so the runtime-config island can be read. */
function webDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'web-figures-'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html lang="de"><head><!--runtime-config--></head><body></body></html>',
  );
  return dir;
}

async function island(t: TestApp): Promise<Record<string, unknown>> {
  const html = await (await t.fetch('/')).text();
  const m = /<script id="runtime-config" type="application\/json">(.*?)<\/script>/s.exec(html);
  expect(m).not.toBeNull();
  return JSON.parse(m![1]) as Record<string, unknown>;
}

describe('start page figures: HOME_FIGURES=live, set explicitly', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = webDir();
    t = await createTestApp({ HOME_FIGURES: 'live', AUTH_DEV_LOGIN: 'true', WEB_DIR: dir });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('tells the client through the island', async () => {
    expect((await island(t)).homeFigures).toBe('live');
  });

  it("answers the instance's counts rounded down, cacheable for a minute", async () => {
    await insertShorts(t, 123, (i) => ({ uses: i < 11 ? 5 : 0 }));
    for (const name of ['zahl-a', 'zahl-b', 'zahl-c']) await loginAs(t, name);
    const res = await t.fetch('/api/figures');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    // 123 shorts, 55 uses, 3 accounts: a count under 10 is 0 (its card is not shown).
    expect(await res.json()).toEqual({ links: 100, visits: 50, users: 0 });
  });

  it('counts at most once a minute: a new short does not show at once', async () => {
    await insertShorts(t, 100);
    const res = await t.fetch('/api/figures');
    expect(await res.json()).toEqual({ links: 100, visits: 50, users: 0 });
  });
});

describe('start page figures: the default (live) on a new instance', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = webDir();
    t = await createTestApp({ WEB_DIR: dir });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is live without HOME_FIGURES, and counts under 10 are 0: no card rather than "9+"', async () => {
    expect((await island(t)).homeFigures).toBe('live');
    await insertShorts(t, 9, () => ({ uses: 1 }));
    const res = await t.fetch('/api/figures');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ links: 0, visits: 0, users: 0 });
  });
});

describe('start page figures: static and off', () => {
  for (const mode of ['static', 'off'] as const) {
    it(`${mode}: the island says so and the counts are not served (404 problem)`, async () => {
      const dir = webDir();
      const t = await createTestApp({ HOME_FIGURES: mode, WEB_DIR: dir });
      try {
        expect((await island(t)).homeFigures).toBe(mode);
        const res = await t.fetch('/api/figures');
        expect(res.status).toBe(404);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(((await res.json()) as { errorKey: string }).errorKey).toBe('figures_disabled');
      } finally {
        await t.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
