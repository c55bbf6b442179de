#!/usr/bin/env node
// The production start, as the Docker image does it (CONTRACT.md "Operations"), tested without a Docker engine:
//   1. lints docker/Dockerfile (hadolint when installed, else dockerfile-utils) and checks its base images name the
//      Node.js line this run uses;
//   2. copies what the image's runtime stage copies (package.json, package-lock.json, dist/) into a fresh folder and
//      installs there with `npm ci --omit=dev`, so a package that only devDependencies provide fails here;
//   3. starts the image's CMD with the image's ENV, NODE_ENV=production and a generated APP_SECRET, and checks
//      health, an anonymous create and its follow, the web client's start page and one of its scripts, the CLI;
//   4. stops it with SIGTERM and expects exit code 0 within 10 s.
// Needs a build (npm run build). Prints the time of each part; exits 1 on the first failure, with one line saying why.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const DOCKERFILE = join(ROOT, 'docker/Dockerfile');
const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const started = Date.now();
let part = Date.now();

function done(what) {
  console.log(`  ok  ${what} (${((Date.now() - part) / 1000).toFixed(1)} s)`);
  part = Date.now();
}

function fail(why) {
  console.error(`production start FAILED: ${why}`);
  process.exitCode = 1;
  throw new Error(why);
}

function check(ok, why) {
  if (!ok) fail(why);
}

// ------------------------------------------------------------------ the Dockerfile

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function instructions(text) {
  const out = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!current && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      current += line.slice(0, -1) + ' ';
      continue;
    }
    current += line;
    const m = /^(\w+)\s+(.*)$/s.exec(current);
    if (m) out.push({ op: m[1].toUpperCase(), args: m[2].trim() });
    current = '';
  }
  return out;
}

function lintDockerfile() {
  const text = readFileSync(DOCKERFILE, 'utf8');
  const hadolint = spawnSync('hadolint', ['--version'], { encoding: 'utf8' });
  if (hadolint.status === 0) {
    const r = spawnSync('hadolint', [DOCKERFILE], { encoding: 'utf8', stdio: 'inherit' });
    check(r.status === 0, 'hadolint found problems in docker/Dockerfile');
  } else {
    const bin = join(ROOT, 'node_modules/.bin/dockerfile-utils');
    const r = spawnSync(bin, ['lint', DOCKERFILE], { encoding: 'utf8' });
    const report = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
    if (report) console.log(report);
    check(
      r.status === 0 && !/error|warning/i.test(report),
      'dockerfile-utils found problems in docker/Dockerfile',
    );
  }
  const steps = instructions(text);
  const line = process.versions.node.split('.')[0];
  const froms = steps.filter((s) => s.op === 'FROM').map((s) => s.args.split(/\s+/)[0]);
  check(froms.length >= 2, 'docker/Dockerfile should have a build and a runtime stage');
  for (const image of froms)
    if (!/^[a-z]+$/.test(image))
      // a stage name (FROM build) is not an image
      check(
        image === `node:${line}-bookworm-slim`,
        `docker/Dockerfile uses ${image}; this run tests Node.js ${line} (node:${line}-bookworm-slim)`,
      );
  const runtime = steps.slice(steps.findLastIndex((s) => s.op === 'FROM'));
  check(
    runtime.some((s) => s.op === 'USER' && s.args !== 'root' && s.args !== '0'),
    'the runtime stage must run as an unprivileged user',
  );
  check(
    runtime.some((s) => s.op === 'HEALTHCHECK'),
    'the runtime stage has no HEALTHCHECK',
  );
  const cmd = runtime.find((s) => s.op === 'CMD');
  check(
    cmd && cmd.args.startsWith('['),
    'the runtime stage needs a CMD in exec form (["node", …])',
  );
  const env = {};
  for (const s of runtime.filter((x) => x.op === 'ENV'))
    for (const m of s.args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) env[m[1]] = m[2].replace(/^"|"$/g, '');
  const copies = runtime
    .filter((s) => s.op === 'COPY')
    .map((s) => s.args.split(/\s+/).filter((a) => !a.startsWith('--')))
    .map((a) => a[0].replace(/^\/app\//, ''));
  done(
    `docker/Dockerfile linted (${hadolint.status === 0 ? 'hadolint' : 'dockerfile-utils'}; node:${line}-bookworm-slim)`,
  );
  return { cmd: JSON.parse(cmd.args), env, copies };
}

// ------------------------------------------------------------------ the install

function install(copies) {
  check(
    existsSync(join(ROOT, 'dist/src/main.js')),
    'dist/src/main.js is missing: run npm run build first',
  );
  const dir = mkdtempSync(join(tmpdir(), 'url-shorter-production-'));
  // What the runtime stage copies, node_modules aside (installed here as the deps stage installs it).
  for (const entry of copies) {
    if (entry === 'node_modules') continue;
    cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
  }
  cpSync(join(ROOT, 'package-lock.json'), join(dir, 'package-lock.json'));
  execFileSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  check(
    !existsSync(join(dir, 'node_modules/vitest')),
    'npm ci --omit=dev installed a devDependency',
  );
  done(`npm ci --omit=dev in ${dir} (${copies.join(', ')})`);
  return dir;
}

// ------------------------------------------------------------------ the start

function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
    s.on('error', rej);
  });
}

async function waitFor(url, ms, alive) {
  const until = Date.now() + ms;
  for (;;) {
    check(alive(), `the app ended before answering ${url}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return res;
    } catch {
      /* not listening yet */
    }
    check(Date.now() < until, `no answer from ${url} within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function run(dir, image) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    PATH: process.env.PATH,
    ...image.env,
    NODE_ENV: 'production',
    PORT: String(port),
    BASE_URL: base,
    DB_FILE: join(dir, 'data/url-shorter.db'),
    APP_SECRET: randomBytes(32).toString('base64url'),
  };
  mkdirSync(join(dir, 'data'));
  const [command, ...args] = image.cmd;
  check(command === 'node', `the image's CMD starts ${command}, not node`);
  const child = spawn(process.execPath, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  let exited = null;
  const exit = new Promise((res) =>
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      res(exited);
    }),
  );
  try {
    await waitFor(`${base}/management/health`, 60_000, () => exited === null);
    done(`started (${image.cmd.join(' ')}, NODE_ENV=production), /management/health answers`);

    const created = await fetch(`${base}/api/code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/production-start' }),
    });
    const body = await created.text();
    check(created.status === 201, `an anonymous create answered ${created.status}: ${body}`);
    const { code } = JSON.parse(body);
    const follow = await fetch(`${base}/s/${code}`, {
      redirect: 'manual',
      headers: { 'user-agent': BROWSER_UA },
    });
    check(
      follow.status === 302 &&
        follow.headers.get('location') === 'https://example.com/production-start',
      `following /s/${code} answered ${follow.status} ${follow.headers.get('location')}`,
    );
    done(`an anonymous create (${code}) and its follow (302)`);

    const home = await fetch(`${base}/`, {
      headers: { 'user-agent': BROWSER_UA, accept: 'text/html' },
    });
    const html = await home.text();
    check(
      home.status === 200 && html.includes('id="root"'),
      `the start page answered ${home.status}`,
    );
    const script = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1];
    check(script, 'the start page names no script');
    const js = await fetch(new URL(script, base));
    check(js.status === 200 && (await js.text()).length > 1000, `${script} answered ${js.status}`);
    done(`the web client's start page and ${script}`);

    const cli = join(dir, 'dist/src/cli/main.js');
    if (existsSync(cli)) {
      const r = spawnSync(process.execPath, [cli, 'config', '--json'], {
        cwd: dir,
        env,
        encoding: 'utf8',
      });
      check(
        r.status === 0,
        `url-shorter config --json exited ${r.status}: ${r.stderr.trim().split('\n')[0]}`,
      );
      const shown = JSON.parse(r.stdout);
      check(!r.stdout.includes(env.APP_SECRET), 'url-shorter config printed APP_SECRET');
      check(
        typeof shown === 'object' && shown !== null,
        'url-shorter config --json printed no object',
      );
      done('the CLI (url-shorter config --json) runs from the production install, secrets masked');
    }

    const stopAt = Date.now();
    child.kill('SIGTERM');
    const result = await Promise.race([
      exit,
      new Promise((r) => setTimeout(() => r(null), 10_000)),
    ]);
    check(result !== null, 'no exit within 10 s of SIGTERM');
    check(result.code === 0, `exit code ${result.code} (signal ${result.signal}) after SIGTERM`);
    done(`graceful stop on SIGTERM in ${Date.now() - stopAt} ms, exit code 0`);
  } catch (err) {
    if (exited === null) child.kill('SIGKILL');
    console.error('--- the app printed:\n' + output.split('\n').slice(-40).join('\n'));
    throw err;
  }
}

// ------------------------------------------------------------------ main

let dir;
try {
  console.log(`production start on node ${process.version}`);
  const image = lintDockerfile();
  dir = install(image.copies);
  await run(dir, image);
  console.log(`production start ok in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (err) {
  if (!process.exitCode) {
    console.error(`production start FAILED: ${err instanceof Error ? err.message : err}`);
    process.exitCode = 1;
  }
} finally {
  if (dir) rmSync(dir, { recursive: true, force: true });
}
