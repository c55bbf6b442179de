import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseLogFormat, ConfigError, loadConfig, resolveAppSecret } from './config';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.baseUrl).toBe('http://localhost:8080');
    expect(c.db.type).toBe('sqlite');
    expect(c.db.file.endsWith(join('data', 'url-shorter.db'))).toBe(true);
    expect(c.reportThreshold).toBe(3);
    expect(c.logLevel).toBe('info');
    expect(c.metadataAllowLoopback).toBe(false);
    expect(c.flags['url.frontend.experimentSwitch']).toBe(true);
    expect(c.flags['url.frontend.statistics']).toBe(true);
    // The language switch is on: a first visit follows the browser (CONTRACT "Language").
    expect(c.flags['url.frontend.languageSwitch']).toBe(true);
    expect(c.flags['url.frontend.maintenance']).toBe(false);
    expect(c.anonRetentionDays).toBe(7);
  });

  it('derives BASE_URL from PORT and trims a trailing slash', () => {
    expect(loadConfig({ PORT: '9000' }).baseUrl).toBe('http://localhost:9000');
    expect(loadConfig({ BASE_URL: 'https://sho.rt/' }).baseUrl).toBe('https://sho.rt');
  });

  it('parses DB_URL into a MySQL connection', () => {
    const c = loadConfig({ DB_URL: 'mysql://app:p%40ss@db.internal:3307/shorts' });
    expect(c.db).toMatchObject({
      type: 'mysql',
      mysql: {
        host: 'db.internal',
        port: 3307,
        username: 'app',
        password: 'p@ss',
        database: 'shorts',
      },
    });
  });

  it('parses FLAGS with and without prefix', () => {
    const c = loadConfig({
      FLAGS: 'url.frontend.statistics=off,maintenance=on,url.frontend.experimentSwitch=off',
    });
    expect(c.flags['url.frontend.statistics']).toBe(false);
    expect(c.flags['url.frontend.maintenance']).toBe(true);
    expect(c.flags['url.frontend.experimentSwitch']).toBe(false);
  });

  it('collects every problem and never echoes the database password', () => {
    let err: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DB_URL: 'oracle://u:SuperSecret@h/db', // no supported engine (postgres:// is one now)
        LOG_LEVEL: 'loud',
        APP_SECRET: 'short',
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const e = err as ConfigError;
    expect(e.problems).toHaveLength(4);
    expect(e.message).toContain('PORT');
    expect(e.message).toContain('DB_URL');
    expect(e.message).toContain('LOG_LEVEL');
    expect(e.message).toContain('APP_SECRET');
    expect(e.message).not.toContain('SuperSecret');
  });

  it('parses a PostgreSQL DB_URL', () => {
    for (const scheme of ['postgres', 'postgresql']) {
      const c = loadConfig({ DB_URL: `${scheme}://app:p%40ss@pg.internal/shorts` });
      expect(c.db).toMatchObject({
        type: 'postgres',
        postgres: {
          host: 'pg.internal',
          port: 5432,
          username: 'app',
          password: 'p@ss',
          database: 'shorts',
        },
      });
      expect(c.db.mysql).toBeUndefined();
    }
  });

  it('refuses METADATA_ALLOW_LOOPBACK in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', METADATA_ALLOW_LOOPBACK: 'true' })).toThrow(
      ConfigError,
    );
    expect(loadConfig({ METADATA_ALLOW_LOOPBACK: 'true' }).metadataAllowLoopback).toBe(true);
  });

  it('refuses malformed booleans and flags', () => {
    expect(() => loadConfig({ METADATA_ALLOW_LOOPBACK: 'maybe' })).toThrow(ConfigError);
    expect(() => loadConfig({ FLAGS: 'statistics' })).toThrow(ConfigError);
  });

  it('reads HOME_FIGURES: live by default, static or off, nothing else', () => {
    expect(loadConfig({}).web.homeFigures).toBe('live');
    expect(loadConfig({ HOME_FIGURES: 'static' }).web.homeFigures).toBe('static');
    expect(loadConfig({ HOME_FIGURES: 'OFF' }).web.homeFigures).toBe('off');
    expect(() => loadConfig({ HOME_FIGURES: 'true' })).toThrow(/HOME_FIGURES must be one of/);
  });

  it('reads DEFAULT_LANGUAGE: de by default, de or en, nothing else', () => {
    expect(loadConfig({}).web.defaultLanguage).toBe('de');
    expect(loadConfig({ DEFAULT_LANGUAGE: 'en' }).web.defaultLanguage).toBe('en');
    expect(loadConfig({ DEFAULT_LANGUAGE: 'DE' }).web.defaultLanguage).toBe('de');
    expect(() => loadConfig({ DEFAULT_LANGUAGE: 'fr' })).toThrow(/DEFAULT_LANGUAGE must be one of/);
  });
});

describe('resolveAppSecret', () => {
  it('generates a secret once into the data folder (0600) and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const c = loadConfig({ DB_FILE: join(dir, 'db.sqlite') });
    const first = resolveAppSecret(c);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(resolveAppSecret(c)).toBe(first);
    expect(readFileSync(join(dir, 'app-secret'), 'utf8').trim()).toBe(first);
    expect(statSync(join(dir, 'app-secret')).mode & 0o777).toBe(0o600);
  });

  it('prefers APP_SECRET', () => {
    const c = loadConfig({ APP_SECRET: 'a'.repeat(40) });
    expect(resolveAppSecret(c)).toBe('a'.repeat(40));
  });
});

describe('LOG_FORMAT', () => {
  it('is pretty on a terminal outside production, json elsewhere', () => {
    expect(chooseLogFormat(undefined, { tty: true, production: false })).toBe('pretty');
    expect(chooseLogFormat(undefined, { tty: true, production: true })).toBe('json');
    expect(chooseLogFormat(undefined, { tty: false, production: false })).toBe('json');
    expect(chooseLogFormat(undefined, { tty: false, production: true })).toBe('json');
  });

  it('set explicitly, wins over the terminal and NODE_ENV', () => {
    expect(chooseLogFormat('json', { tty: true, production: false })).toBe('json');
    expect(chooseLogFormat('pretty', { tty: false, production: true })).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: 'PRETTY', NODE_ENV: 'production' }).logFormat).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
  });

  it('unset, follows whether stdout is a terminal', () => {
    const tty = process.stdout.isTTY === true;
    expect(loadConfig({}).logFormat).toBe(tty ? 'pretty' : 'json');
    expect(loadConfig({ NODE_ENV: 'production' }).logFormat).toBe('json');
  });

  it('refuses another value with a clear message', () => {
    expect(() => loadConfig({ LOG_FORMAT: 'colour' })).toThrow(
      'LOG_FORMAT must be one of json, pretty (got "colour")',
    );
  });
});
