import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/cli';
import { CliRuntime } from '../../src/cli/runtime';
import { LeasedJobs } from '../../src/database/leased-jobs';
import { MIGRATIONS } from '../../src/database/migrations';
import { useTestApp, useTestDatabase } from '../support/app';
import { DomainRegistry } from '../../src/domains/domain-registry';
import { createTestDatabase, TEST_DB_KIND, TEST_REDIS_URL } from '../support/database';
import { FakeDns } from '../support/fake-dns';
import { NO_LIMITS } from '../support/limits';
import { useLogin } from '../support/login';
import { getOnHost } from '../support/on-host';
import { createShort } from '../support/shorts';

/** What one run of the CLI wrote and answered. */
interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout read as JSON (the runs with --json). */
  json<T = unknown>(): T;
}

/** Runs the CLI in this process, on `env` only (not this process's environment). */
async function cli(args: string[], env: Record<string, string>): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
    env,
  });
  return { code, stdout, stderr, json: <T>() => JSON.parse(stdout) as T };
}

/** A failure: exit code 1, nothing on stdout, exactly one line on stderr (returned). */
function oneLineFailure(run: Run): string {
  expect(run.code, run.stdout + run.stderr).toBe(1);
  expect(run.stdout).toBe('');
  const lines = run.stderr.split('\n').filter(Boolean);
  expect(lines, run.stderr).toHaveLength(1);
  expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
  return lines[0];
}

const SECRET = 'cli-test-secret-'.padEnd(40, 'y');
const METRICS_TOKEN = 'cli-metrics-token-0123456789';

describe('the CLI on the database of a running instance', () => {
  const dns = new FakeDns();
  beforeAll(() => dns.start());
  afterAll(() => dns.stop());
  const db = useTestDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'url-shorter-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  /** The configuration the app and the CLI share (the CLI reads nothing else). */
  const env = (): Record<string, string> => ({
    ...db.env,
    APP_SECRET: SECRET,
    METRICS_TOKEN,
    AUTH_DEV_LOGIN: 'true',
    ADMIN_USERS: 'dev:boss',
    BASE_URL: 'http://short.example',
    DNS_SERVERS: dns.server,
    DNS_TIMEOUT_MS: '500',
    ...NO_LIMITS,
  });
  const t = useTestApp(env);
  const alice = useLogin(t, 'alice');
  const bob = useLogin(t, 'bob');
  const boss = useLogin(t, 'boss');
  const run = (...args: string[]) => cli(args, env());

  it('migrate: nothing is pending on the running instance’s database', async () => {
    const r = await run('migrate', '--json');
    expect(r.code, r.stderr).toBe(0);
    const out = r.json<{ ran: string[]; applied: number; database: string }>();
    expect(out.ran).toEqual([]);
    expect(out.applied).toBe(MIGRATIONS.length);
    expect(out.database.startsWith(TEST_DB_KIND === 'mariadb' ? 'mysql' : TEST_DB_KIND)).toBe(true);
    const text = await run('migrate');
    expect(text.stdout).toMatch(/^No pending migrations on /);
  });

  it('config: every variable with its effective value, secrets masked', async () => {
    const r = await run('config', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(SECRET);
    expect(r.stdout).not.toContain(METRICS_TOKEN);
    const out = r.json<{
      variables: Record<string, { value: string | null; source: string }>;
    }>();
    expect(out.variables.APP_SECRET).toEqual({ value: '******', source: 'env' });
    expect(out.variables.METRICS_TOKEN).toEqual({ value: '******', source: 'env' });
    expect(out.variables.BASE_URL).toEqual({ value: 'http://short.example', source: 'env' });
    expect(out.variables.PORT).toEqual({ value: '8080', source: 'default' });
    expect(out.variables.REDIS_URL).toEqual({ value: null, source: 'default' });
    const text = await run('config');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^PORT\s+8080\s+\(default\)$/m);
    expect(text.stdout).not.toContain(SECRET);
  });

  it('config: a bad value fails with one line naming it', async () => {
    const line = oneLineFailure(await cli(['config'], { ...env(), PORT: 'eighty' }));
    expect(line).toContain('Invalid configuration: PORT must be an integer');
    // Every command reads the same configuration, and fails alike.
    const other = oneLineFailure(await cli(['domains', 'list'], { ...env(), LOG_LEVEL: 'loud' }));
    expect(other).toContain('LOG_LEVEL must be one of');
  });

  it('admin grant/revoke: the running app answers the admin API for that user at once', async () => {
    expect((await alice.fetch('/api/admin/entity')).status).toBe(403);
    const granted = await run('admin', 'grant', 'dev:alice', '--json');
    expect(granted.code, granted.stderr).toBe(0);
    expect(granted.json()).toMatchObject({
      admin: true,
      changed: true,
      user: { id: alice.userId },
    });
    // Roles are read per request (no cache): the same session is an admin's now.
    expect((await alice.fetch('/api/admin/entity')).status).toBe(200);
    const again = await run('admin', 'grant', 'DEV:Alice');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('is an admin already');

    const revoked = await run('admin', 'revoke', 'dev:alice');
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain('dev:alice is no admin any more');
    expect((await alice.fetch('/api/admin/entity')).status).toBe(403);
    const account = (await (await alice.fetch('/api/account')).json()) as { authorities: string[] };
    expect(account.authorities).toEqual(['ROLE_USER']);
  });

  it('admin revoke of an ADMIN_USERS user says it comes back at the next login', async () => {
    const r = await run('admin', 'revoke', 'dev:boss');
    expect(r.code, r.stderr).toBe(0);
    expect((await boss.fetch('/api/admin/entity')).status).toBe(403);
    expect(r.stderr).toMatch(/^note: dev:boss is listed in ADMIN_USERS/);
    expect((await run('admin', 'grant', 'dev:boss')).code).toBe(0);
    expect((await boss.fetch('/api/admin/entity')).status).toBe(200);
  });

  it('admin: an unknown user or a malformed name fails with one line', async () => {
    expect(oneLineFailure(await run('admin', 'grant', 'dev:nobody'))).toContain(
      'no user dev:nobody: a user must have logged in once before',
    );
    expect(oneLineFailure(await run('admin', 'revoke', 'nobody'))).toContain(
      'is not provider:username',
    );
    expect(oneLineFailure(await run('admin', 'promote', 'dev:alice'))).toMatch(/unknown command/);
  });

  it('domains list and verify: the same DNS check as the server’s, seen by the app', async () => {
    const added = await alice.post('/api/domains', {
      host: 'go.cli.example',
      homeRedirect: 'https://home.example.org/',
    });
    expect(added.status).toBe(201);
    const domain = (await added.json()) as { id: string; verification: { value: string } };

    const listed = await run('domains', 'list', '--json');
    expect(listed.code, listed.stderr).toBe(0);
    const rows = listed.json<Array<{ host: string; state: string; owner: { username: string } }>>();
    expect(rows.find((d) => d.host === 'go.cli.example')).toMatchObject({
      state: 'pending',
      owner: { username: 'alice' },
    });
    const text = await run('domains', 'list');
    expect(text.stdout).toMatch(/^go\.cli\.example {2}pending {2}alice$/m);

    // No TXT record yet: the check fails, and says why in one line.
    const failed = await run('domains', 'verify', 'go.cli.example');
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/^failed: go\.cli\.example {2}pending \(dns_no_record\)/);
    expect(failed.stderr.trim().split('\n')).toHaveLength(1);
    expect(failed.stderr).toContain('_url-shorter.go.cli.example');

    dns.answers.set('_url-shorter.go.cli.example', { txt: [[domain.verification.value]] });
    const passed = await run('domains', 'verify', 'GO.cli.example.', '--json');
    expect(passed.code, passed.stderr).toBe(0);
    expect(passed.json()).toMatchObject([
      { host: 'go.cli.example', state: 'verified', passed: true },
    ]);
    expect(dns.asked).toContain('_url-shorter.go.cli.example');
    // The running app reads the domain verified (its API reads the table).
    const mine = (await (await alice.fetch('/api/domains')).json()) as Array<{
      host: string;
      verified: boolean;
    }>;
    expect(mine.find((d) => d.host === 'go.cli.example')?.verified).toBe(true);
    // Its follow path holds verified domains in memory: without Redis the CLI cannot tell it,
    // and the app's resync (every few minutes) picks the domain up.
    expect((await getOnHost(t.url, 'go.cli.example', '/')).location).not.toBe(
      'https://home.example.org/',
    );
    await t.app.get(DomainRegistry).reload();
    expect((await getOnHost(t.url, 'go.cli.example', '/')).location).toBe(
      'https://home.example.org/',
    );

    expect(oneLineFailure(await run('domains', 'verify', 'none.cli.example'))).toBe(
      'error: no domain none.cli.example',
    );
    expect(oneLineFailure(await run('domains', 'verify', 'not a host'))).toContain(
      'host: must be a host name',
    );
  });

  it('shorts export: a short created through the running app’s API', async () => {
    const short = await createShort(alice, {
      url: 'https://example.com/from-api',
      code: 'cli-api',
    });
    const r = await run('shorts', 'export', '--user', 'dev:alice', '--json');
    expect(r.code, r.stderr).toBe(0);
    const rows = r.json<Array<{ code: string; url: string; id: string }>>();
    expect(rows).toContainEqual(
      expect.objectContaining({
        code: 'cli-api',
        url: 'https://example.com/from-api',
        id: short.id,
      }),
    );
    const csv = await run('shorts', 'export', '--user', 'dev:alice');
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\r\n')[0]).toMatch(/^id,/);
    expect(csv.stdout).toContain('cli-api');
  });

  it('shorts import then export: a round trip through files, with the API’s rules', async () => {
    const csvFile = join(dir, 'in.csv');
    writeFileSync(
      csvFile,
      'url,code,name\r\nhttps://example.com/one,cli-one,One\r\nhttps://example.com/two,cli-api,Taken\r\njavascript:alert(1),,Bad\r\n',
    );
    const imported = await run('shorts', 'import', csvFile, '--user', 'dev:bob', '--json');
    expect(imported.code, imported.stderr).toBe(0);
    const result = imported.json<{
      created: number;
      skipped: Array<{ row: number; errorKey: string }>;
    }>();
    expect(result.created).toBe(1);
    expect(result.skipped.map((s) => [s.row, s.errorKey])).toEqual([
      [2, 'code_exists'],
      [3, expect.any(String)],
    ]);
    // The running app serves the imported short as bob's.
    const info = (await (await bob.fetch('/api/code/cli-one?redirect=false')).json()) as {
      owner: { username: string };
      name: string;
    };
    expect(info).toMatchObject({ owner: { username: 'bob' }, name: 'One' });
    const follow = await t.fetch('/s/cli-one');
    expect(follow.status).toBe(302);
    expect(follow.headers.get('location')).toBe('https://example.com/one');

    // Export to a file (JSON by its name), import that file for another user, export again.
    const out = join(dir, 'bob.json');
    const exported = await run('shorts', 'export', '--user', 'dev:bob', '--out', out);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain(`to ${out} (json,`);
    const rows = JSON.parse(readFileSync(out, 'utf8')) as Array<Record<string, unknown>>;
    expect(rows.map((s) => s.code)).toEqual(['cli-one']);
    writeFileSync(out, JSON.stringify(rows.map((s) => ({ ...s, code: 'cli-one-copy' }))));
    const again = await run('shorts', 'import', out, '--user', 'dev:alice');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('Imported 1 short(s) for dev:alice; skipped 0.');
    const back = await run('shorts', 'export', '--user', alice.userId, '--format', 'json');
    const codes = JSON.parse(back.stdout).map((s: { code: string }) => s.code) as string[];
    expect(codes).toEqual(expect.arrayContaining(['cli-api', 'cli-one-copy']));
  });

  it('shorts: a missing --user, an unknown user or a file over the limit fail with one line', async () => {
    expect(oneLineFailure(await run('shorts', 'export'))).toContain(
      "required option '--user <user>' not specified",
    );
    expect(oneLineFailure(await run('shorts', 'export', '--user', 'dev:nobody'))).toContain(
      'no user dev:nobody',
    );
    const big = join(dir, 'big.csv');
    writeFileSync(big, 'url\n' + 'https://example.com/x\n'.repeat(110_000));
    expect(oneLineFailure(await run('shorts', 'import', big, '--user', 'dev:bob'))).toContain(
      "larger than the import's limit",
    );
    const noUrl = join(dir, 'no-url.csv');
    writeFileSync(noUrl, 'name\nfoo\n');
    expect(oneLineFailure(await run('shorts', 'import', noUrl, '--user', 'dev:bob'))).toContain(
      'needs a url column',
    );
    expect(
      oneLineFailure(await run('shorts', 'import', join(dir, 'missing.csv'), '--user', 'dev:bob')),
    ).toContain('cannot read');
  });

  it('the CLI’s modules run no scheduled job and take no lease the servers need', async () => {
    const job = { name: 'cli-probe', everyMs: 60_000, what: 'Probing', logger: 'Test' };
    const work = vi.fn(async () => undefined);
    const runtime = new CliRuntime({
      stdout: () => undefined,
      stderr: () => undefined,
      env: env(),
    });
    await runtime.withApp(async (app) => {
      expect(await app.get(LeasedJobs).scheduled(job, work)).toBe(false);
    });
    expect(work).not.toHaveBeenCalled();
    expect(await t.query('SELECT name FROM job_locks WHERE name = ?', ['cli-probe'])).toEqual([]);
    // The app's own jobs still run (the switch is the CLI's alone).
    expect(await t.app.get(LeasedJobs).scheduled(job, work)).toBe(true);
    expect(work).toHaveBeenCalledOnce();
  });

  it('backup: the file is required', async () => {
    expect(oneLineFailure(await run('backup'))).toContain("missing required argument 'file'");
  });

  it('help and version answer 0; an unknown command 1', async () => {
    const help = await run('--help');
    expect(help.code).toBe(0);
    for (const command of ['migrate', 'config', 'admin', 'domains', 'shorts', 'backup']) {
      expect(help.stdout).toContain(command);
    }
    expect((await run('--version')).code).toBe(0);
    expect(oneLineFailure(await run('frobnicate'))).toMatch(/unknown command 'frobnicate'/);
  });
});

describe('the CLI on a database that is not migrated', () => {
  it('refuses every command but migrate; migrate runs the server’s migrations once', async () => {
    const db = await createTestDatabase();
    try {
      const env = { ...db.env, APP_SECRET: SECRET };
      const refused = oneLineFailure(await cli(['domains', 'list'], env));
      expect(refused).toMatch(
        TEST_DB_KIND === 'sqlite' ? /no database at .*test\.db \(DB_FILE\)/ : /pending migration/,
      );
      const first = await cli(['migrate', '--json'], env);
      expect(first.code, first.stderr).toBe(0);
      expect(first.json<{ ran: string[] }>().ran).toEqual(MIGRATIONS.map((m) => m.name));
      const listed = await cli(['domains', 'list'], env);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toBe('No own domains.\n');
      const second = await cli(['migrate'], env);
      expect(second.stdout).toMatch(/^No pending migrations on .* \(\d+ applied\)\.$/m);
    } finally {
      await db.drop();
    }
  });
});

describe('the CLI beside a running instance with Redis', () => {
  const dns = new FakeDns();
  beforeAll(() => dns.start());
  afterAll(() => dns.stop());
  const db = useTestDatabase();
  const env = (): Record<string, string> => ({
    ...db.env,
    APP_SECRET: SECRET,
    REDIS_URL: TEST_REDIS_URL,
    AUTH_DEV_LOGIN: 'true',
    BASE_URL: 'http://short.example',
    DNS_SERVERS: dns.server,
    DNS_TIMEOUT_MS: '500',
    ...NO_LIMITS,
  });
  const t = useTestApp(env);
  const alice = useLogin(t, 'alice');

  it('domains verify: the app follows the domain at once (the cache bus tells it)', async () => {
    const added = await alice.post('/api/domains', {
      host: 'go.bus.example',
      homeRedirect: 'https://home.example.org/',
    });
    expect(added.status).toBe(201);
    const domain = (await added.json()) as { verification: { value: string } };
    dns.answers.set('_url-shorter.go.bus.example', { txt: [[domain.verification.value]] });
    const r = await cli(['domains', 'verify', 'go.bus.example'], env());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^passed: go\.bus\.example {2}verified {2}alice$/m);
    await expect
      .poll(async () => (await getOnHost(t.url, 'go.bus.example', '/')).location, {
        timeout: 2000,
        interval: 25,
      })
      .toBe('https://home.example.org/');
  });
});
