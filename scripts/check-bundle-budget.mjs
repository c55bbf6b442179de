#!/usr/bin/env node
// Budget: the start page's initial JavaScript (the entry script and every modulepreload of
// dist/web/index.html) is at most 130 KB gzip. Lazy chunks (Sentry, chrono-node, other pages)
// do not count. Run after `npm run build`; exits 1 when the budget is exceeded. The build writes a
// .gz and a .br beside each file (served as they are): the budget measures that .gz, and a script
// without its compressed copies fails the check (the server would then send it uncompressed).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = Number(process.env.BUNDLE_BUDGET_BYTES ?? 130 * 1000);
const dir = resolve(process.argv[2] ?? 'dist/web');
const indexFile = join(dir, 'index.html');
if (!existsSync(indexFile)) {
  console.error(`budget: ${indexFile} not found (run npm run build first)`);
  process.exit(1);
}
const html = readFileSync(indexFile, 'utf8');
const refs = new Set();
for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+\.m?js)"[^>]*>/g)) refs.add(m[1]);
for (const m of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"[^>]*>/g))
  refs.add(m[1]);
for (const m of html.matchAll(/<link\b[^>]*\bhref="([^"]+)"[^>]*\brel="modulepreload"[^>]*>/g))
  refs.add(m[1]);
if (refs.size === 0) {
  console.error('budget: no script found in index.html');
  process.exit(1);
}
let total = 0;
const missing = [];
for (const ref of refs) {
  const file = join(dir, ref.replace(/^\//, ''));
  const body = readFileSync(file);
  for (const suffix of ['.gz', '.br'])
    // A copy is left out only where it would not be smaller than the file.
    if (!existsSync(file + suffix) && gzipSync(body, { level: 9 }).length < body.length)
      missing.push(ref + suffix);
  const gz = existsSync(file + '.gz')
    ? readFileSync(file + '.gz').length
    : gzipSync(body, { level: 9 }).length;
  const br = existsSync(file + '.br')
    ? ` (${(readFileSync(file + '.br').length / 1000).toFixed(1)} KB br)`
    : '';
  total += gz;
  console.log(`  ${ref}  ${(gz / 1000).toFixed(1)} KB gzip${br}`);
}
if (missing.length > 0) {
  console.error(
    `budget: the build has no compressed copy ${missing.join(', ')} (npm run build writes them)`,
  );
  process.exit(1);
}
const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
if (total > BUDGET_BYTES) {
  console.error(`budget: initial JS ${kb(total)} gzip exceeds ${kb(BUDGET_BYTES)}`);
  process.exit(1);
}
console.log(`budget: initial JS ${kb(total)} gzip, within ${kb(BUDGET_BYTES)}`);
