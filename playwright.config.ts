import { execSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

// Browser tests against the BUILT app (`npm run build` first): node dist/src/main.js on SQLite.
// The config is evaluated by the runner and by every worker; the ports and the data folder are
// chosen once and passed on through the environment.
function freePort(): string {
  return execSync(
    `node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})"`,
  ).toString();
}
process.env.BROWSER_PORT ??= freePort();
process.env.BROWSER_FLAGS_PORT ??= freePort();
process.env.BROWSER_STUB_PORT ??= freePort();
process.env.BROWSER_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'url-shorter-browser-'));

const port = process.env.BROWSER_PORT;
const flagsPort = process.env.BROWSER_FLAGS_PORT;
const stubPort = process.env.BROWSER_STUB_PORT;
const dataDir = process.env.BROWSER_DATA_DIR;
export const SENTRY_TEST_DSN = 'https://public@sentry.browser-test.invalid/1';

// The app under test: the build in dist/ (npm run build), or another build given by
// BROWSER_APP_MAIN (server entry) and BROWSER_WEB_DIR (client folder).
const appMain = process.env.BROWSER_APP_MAIN ?? 'dist/src/main.js';
const webDirEnv: Record<string, string> = process.env.BROWSER_WEB_DIR
  ? { WEB_DIR: process.env.BROWSER_WEB_DIR }
  : {};

const commonEnv = {
  ...webDirEnv,
  NODE_ENV: 'test',
  APP_SECRET: 'browser-test-secret-'.padEnd(48, 'x'),
  LOG_LEVEL: 'warn',
  LOG_STDOUT: 'false',
  // One address creates every short of the browser tests; the limits have tests of their own.
  LIMIT_ANON_CREATE: 'off',
  LIMIT_USER_CREATE: 'off',
  LIMIT_QR_RENDER: 'off',
  LIMIT_BULK: 'off',
  SENTRY_DSN_WEB: SENTRY_TEST_DSN,
  FOOTER_IMPRINT_URL: 'https://impressum.browser-test.invalid/',
  FOOTER_PRIVACY_URL: 'https://datenschutz.browser-test.invalid/',
  FOOTER_SERVICES: 'Wiki=https://wiki.browser-test.invalid/',
};

export default defineConfig({
  testDir: 'test/browser',
  testMatch: '**/*.spec.ts',
  // The outside world (every host under .invalid) answered by a local HTTPS server: see there.
  globalSetup: './test/browser/global-setup.ts',
  globalTeardown: './test/browser/global-teardown.ts',
  outputDir: 'test-results/artifacts',
  // Two spec files at a time (the tests of a file in order): with the traces' screencast off, the
  // leg is no longer bound by Chromium's CPU alone (182 tests: 18.8 min with one worker, 8.8 min
  // with two, both on a loaded machine). Every test logs in as a user of its own, so files
  // running side by side share the apps but not their data.
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI
    ? [['list'], ['html', { open: 'never', outputFolder: 'test-results/html' }]]
    : 'list',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    serviceWorkers: 'block',
    // The certificate of the .invalid hosts' server (test/browser/global-setup.ts) is its own.
    ignoreHTTPSErrors: true,
    // A failed test keeps its trace (actions, DOM snapshots, network) but no screencast: recording
    // screenshots of every test cost a file 14 % of its time and a third of its CPU.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // Targets, footer links and Sentry: test/browser/global-setup.ts answers them.
        `--host-resolver-rules=MAP *.invalid 127.0.0.1:${stubPort}`,
      ],
    },
  },
  webServer: [
    {
      command: `node ${appMain}`,
      url: `http://127.0.0.1:${port}/api/frontend`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        ...commonEnv,
        PORT: port,
        BASE_URL: `http://127.0.0.1:${port}`,
        DB_FILE: join(dataDir, 'main.db'),
        // The local development login (refused in production) gives the tests a logged-in user.
        AUTH_DEV_LOGIN: 'true',
        // The dev-login user "admin" is an administrator (admin area tests).
        ADMIN_USERS: 'dev:admin',
        // Webhooks may point at a receiver the test runs on 127.0.0.1 (webhooks.spec.ts); test-only.
        METADATA_ALLOW_LOOPBACK: 'true',
        // The default flags and figures: English beside German (english.spec.ts) is the default.
      },
    },
    {
      command: `node ${appMain}`,
      url: `http://127.0.0.1:${flagsPort}/api/frontend`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        ...commonEnv,
        PORT: flagsPort,
        BASE_URL: `http://127.0.0.1:${flagsPort}`,
        DB_FILE: join(dataDir, 'flags.db'),
        FLAGS: 'maintenance=on,shutdown=on',
        // The start page's figures are live by default (first-visit.spec.ts counts this one's).
      },
    },
  ],
});
