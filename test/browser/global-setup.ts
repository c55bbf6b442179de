import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { join } from 'node:path';

/**
 * The outside world of the browser tests: Chromium resolves every host under .invalid (the
 * shorts' targets, the footer's links, the web client's Sentry DSN) to this HTTPS server
 * (--host-resolver-rules in playwright.config.ts; its certificate is made here and accepted through
 * ignoreHTTPSErrors). It answers a target page named by its path, and `{}` to the Sentry host.
 * Answering there rather than through page.route keeps the tests' requests uninterrupted:
 * Playwright sends every request of a routed context through the test's worker and turns the
 * browser's cache off.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const dir = process.env.BROWSER_DATA_DIR!;
  const [key, cert] = [join(dir, 'stub-key.pem'), join(dir, 'stub-cert.pem')];
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=browser-test.invalid'],
      ...['-addext', 'subjectAltName=DNS:*.browser-test.invalid'],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    if (host === 'sentry.browser-test.invalid') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    const path = new URL(req.url ?? '/', 'https://stub.invalid').pathname;
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><html lang="de"><head><title>Zielseite</title></head><body><h1>Zielseite ${path}</h1></body></html>`,
      );
  });
  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    server.listen(Number(process.env.BROWSER_STUB_PORT), '127.0.0.1', listening);
  });
  return () =>
    new Promise<void>((closed) => {
      server.closeAllConnections();
      server.close(() => closed());
    });
}
