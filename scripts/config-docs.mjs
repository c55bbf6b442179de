// README.md's configuration tables from the table of variables (src/config/variables.ts), through
// the BUILT server (run `npm run build` first, like openapi:check):
//   node scripts/config-docs.mjs          rewrites the part between <!-- config:start --> and <!-- config:end -->
//   node scripts/config-docs.mjs --check  exits 1 when README.md differs from what the table generates
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const check = process.argv.includes('--check');
const name = check ? 'config:check' : 'config:docs';
const root = fileURLToPath(new URL('..', import.meta.url));
const readmeFile = `${root}README.md`;
const built = `${root}dist/src/config/docs.js`;

function fail(message, code = 1) {
  console.error(`${name}: ${message}`);
  process.exit(code);
}

if (!existsSync(built)) fail('dist/src/config/docs.js is missing - run npm run build first', 2);
for (const file of ['variables', 'docs']) {
  const src = `${root}src/config/${file}.ts`;
  const out = `${root}dist/src/config/${file}.js`;
  if (existsSync(src) && existsSync(out) && statSync(src).mtimeMs > statSync(out).mtimeMs) {
    fail(`src/config/${file}.ts is newer than the build - run npm run build first`, 2);
  }
}

const { configTablesDrift, withConfigTables } = createRequire(import.meta.url)(built);
const readme = readFileSync(readmeFile, 'utf8');

let drift;
try {
  drift = configTablesDrift(readme);
} catch (err) {
  fail(err instanceof Error ? err.message : String(err));
}

if (check) {
  if (drift.length === 0) {
    console.log(`${name}: README.md's configuration tables match src/config/variables.ts`);
  } else {
    console.error(
      `${name}: README.md's configuration tables differ from src/config/variables.ts (- README, + generated):`,
    );
    for (const line of drift.slice(0, 80)) console.error(`  ${line}`);
    if (drift.length > 80) console.error(`  ... (${drift.length} lines in total)`);
    fail(
      'FAILED - edit src/config/variables.ts, not the tables; then run npm run build && npm run config:docs and commit README.md',
    );
  }
} else if (drift.length === 0) {
  console.log(`${name}: README.md is up to date`);
} else {
  writeFileSync(readmeFile, withConfigTables(readme));
  console.log(
    `${name}: README.md's configuration tables rewritten (${drift.length} lines changed)`,
  );
}
