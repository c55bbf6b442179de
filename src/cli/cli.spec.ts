import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config';
import { runCli } from './cli';
import { effectiveConfiguration } from './commands/config';
import { parseLogin } from './commands/users';
import { CliError, debugOf, failureLine } from './io';
import { ValidationFailedError } from '../common/errors';

async function cli(args: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
    env: { APP_SECRET: 'unit-secret-'.padEnd(40, 'z'), ...env },
  });
  return { code, stdout, stderr };
}

describe('runCli: arguments and exit codes (no database)', () => {
  it('help and version: 0; no command, an unknown command or option: 1 with one line', async () => {
    expect((await cli(['--help'])).code).toBe(0);
    expect((await cli(['shorts', 'import', '--help'])).stdout).toContain('--user <user>');
    expect((await cli(['-V'])).stdout).toMatch(/^\d+\.\d+\.\d+/);
    for (const args of [['nope'], ['config', '--nope'], ['admin', 'grant'], ['backup']]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    // Without a command commander shows the help on stderr: still a failure.
    expect((await cli([])).code).toBe(1);
  });

  it('config: a bad value is one line on stderr, every problem in it, nothing on stdout', async () => {
    const r = await cli(['config', '--json'], { PORT: 'x', TRUST_PROXY: 'nonsense!' });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^error: Invalid configuration: PORT must be .*; TRUST_PROXY must be .*\n$/,
    );
  });

  it('config: secrets and URL passwords masked, defaults shown as the app applies them', () => {
    const config = loadConfig({
      DB_URL: 'mysql://app:s3cret-pass@db.example:3306/shorts',
      SENTRY_DSN: 'https://key123456@sentry.example/1',
      LIMIT_ANON_CREATE: '10/min',
    });
    const view = effectiveConfiguration(config);
    expect(view.DB_URL).toEqual({
      value: 'mysql://app:******@db.example:3306/shorts',
      source: 'env',
    });
    expect(view.SENTRY_DSN).toEqual({ value: '******', source: 'env' });
    expect(view.LIMIT_ANON_CREATE).toEqual({ value: '10/min', source: 'env' });
    expect(view.LIMIT_USER_CREATE).toEqual({ value: '20000/d', source: 'default' });
    expect(view.LOG_LEVEL).toEqual({ value: 'info', source: 'default' });
    expect(JSON.stringify(view)).not.toContain('s3cret-pass');
  });

  it('shorts: --format must be csv or json', async () => {
    const r = await cli(['shorts', 'export', '--user', 'dev:a', '--format', 'xml']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('error: --format must be csv or json (got "xml")\n');
  });

  it('parseLogin: provider:username or a user id', () => {
    expect(parseLogin('github:alice')).toEqual({ provider: 'github', username: 'alice' });
    expect(parseLogin('oidc:a:b')).toEqual({ provider: 'oidc', username: 'a:b' });
    expect(parseLogin('0D9E1F2A-1B2C-4D3E-8F90-A1B2C3D4E5F6')).toEqual({
      id: '0d9e1f2a-1b2c-4d3e-8f90-a1b2c3d4e5f6',
    });
    for (const bad of ['alice', ':alice', 'github:', '']) {
      expect(() => parseLogin(bad)).toThrow(CliError);
    }
  });

  it('failures are one line; stacks only when debugging', () => {
    expect(failureLine(new Error('first\nsecond'))).toBe('first');
    expect(failureLine(new ValidationFailedError({ host: 'is bad', url: 'too long' }))).toBe(
      'host: is bad; url: too long',
    );
    expect(debugOf({})).toBe(false);
    expect(debugOf({ DEBUG: '1' })).toBe(true);
    expect(debugOf({ LOG_LEVEL: 'DEBUG' })).toBe(true);
    expect(debugOf({ LOG_LEVEL: 'info' })).toBe(false);
  });
});
