import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LogService } from '../logging/log.service';
import { MASK, Redactor } from '../logging/redact';
import { type AppConfig, appSecretOf, bootConfig, loadConfig } from './config';
import {
  environmentView,
  sensitiveValues,
  VARIABLE_NAMES,
  type VariableName,
  VARIABLES,
} from './variables';

/**
 * A valid value for every variable of the table, each different from its default. Typed by the
 * table: a new variable does not compile until it has a sample here, and is then walked by every
 * test below (loading, masking, redaction).
 */
const SAMPLE: Record<VariableName, string> = {
  PORT: '9090',
  BASE_URL: 'https://sho.rt/',
  NODE_ENV: 'staging',
  DB_URL: 'mysql://app:db-pass-canary%40x@db.internal:3307/shorts',
  DB_FILE: '/srv/shorts/shorts.db',
  APP_SECRET: 'app-secret-canary-'.padEnd(40, 'a'),
  REDIS_URL: 'redis://cache:redis-pass-canary@cache.internal:6379/0',
  TRUST_PROXY: 'loopback,10.0.0.0/8',
  DB_TIMEOUT_MS: '5000',
  SHORT_CACHE_SIZE: '50',
  ANON_RETENTION_DAYS: '30',
  STATS_ENABLED: 'false',
  STATS_RETENTION_DAYS: '90',
  STATS_BACKLOG_MB: '8',
  GEOIP_DB: '/srv/geo/GeoLite2-Country.mmdb',
  GEO_COUNTRY_HEADER: 'CF-IPCountry',
  HEALTH_CHECK: 'false',
  HEALTH_CHECK_TIMEOUT_MS: '800',
  DNS_SERVERS: '127.0.0.1:5353, 9.9.9.9',
  DNS_TIMEOUT_MS: '1500',
  PASSWORD_MAX_TRIES: '3',
  PASSWORD_LOCK_SECONDS: '60',
  WEB_DIR: '/srv/shorts/web',
  LIMIT_ANON_CREATE: '2/s, 10/h',
  LIMIT_USER_CREATE: 'off',
  LIMIT_QR_RENDER: '100/d',
  LIMIT_HEALTH_CHECK: '3/h',
  LIMIT_DOMAIN_VERIFY: '4/min',
  LIMIT_BULK: '20/min',
  LIMIT_DOMAINS: '5',
  LIMIT_TEAMS: '5',
  LIMIT_TEAM_CREATE: '3/min',
  AUTH_GITHUB_CLIENT_ID: 'github-id-visible',
  AUTH_GITHUB_CLIENT_SECRET: 'github-secret-canary',
  AUTH_DISCORD_CLIENT_ID: 'discord-id-visible',
  AUTH_DISCORD_CLIENT_SECRET: 'discord-secret-canary',
  AUTH_GITHUB_AUTHORIZATION_URL: 'http://127.0.0.1:9/gh/authorize',
  AUTH_GITHUB_TOKEN_URL: 'http://127.0.0.1:9/gh/token',
  AUTH_GITHUB_USER_PROFILE_URL: 'http://127.0.0.1:9/gh/user',
  AUTH_GITHUB_USER_EMAILS_URL: 'http://127.0.0.1:9/gh/emails',
  AUTH_DISCORD_AUTHORIZATION_URL: 'http://127.0.0.1:9/dc/authorize',
  AUTH_DISCORD_TOKEN_URL: 'http://127.0.0.1:9/dc/token',
  AUTH_DISCORD_USER_PROFILE_URL: 'http://127.0.0.1:9/dc/user',
  AUTH_DISCORD_USER_EMAILS_URL: 'http://127.0.0.1:9/dc/emails',
  AUTH_OIDC_ISSUER: 'https://id.example/realms/x',
  AUTH_OIDC_CLIENT_ID: 'oidc-id-visible',
  AUTH_OIDC_CLIENT_SECRET: 'oidc-secret-canary',
  AUTH_OIDC_NAME: 'Company SSO',
  AUTH_OIDC_SCOPE: 'openid email',
  AUTH_DEV_LOGIN: 'true',
  SESSION_IDLE_TIMEOUT: '3600',
  SESSION_MAX_AGE: '86400',
  ADMIN_USERS: 'github:Alice, discord:bob',
  REPORT_THRESHOLD: '5',
  FLAGS: 'statistics=off,languageSwitch=off',
  UNLEASH_URL: 'https://unleash.example/api/frontend',
  UNLEASH_CLIENT_KEY: 'unleash-key-canary',
  FOOTER_IMPRINT_URL: 'https://example.org/imprint',
  FOOTER_PRIVACY_URL: 'https://example.org/privacy',
  FOOTER_TERMS_URL: 'https://example.org/terms',
  FOOTER_CHAT_URL: 'https://chat.example.org/',
  FOOTER_CONTACT_URL: 'mailto:ops@example.org',
  FOOTER_SERVICES: 'Wiki=https://wiki.example.org,Git=https://git.example.org',
  HOME_FIGURES: 'Static',
  DEFAULT_LANGUAGE: 'EN',
  LOG_LEVEL: 'DEBUG',
  LOG_FORMAT: 'Pretty',
  LOG_STDOUT: 'false',
  LOG_BUFFER_SIZE: '50',
  METRICS_TOKEN: 'metrics-token-canary-1234',
  SENTRY_DSN: 'https://sentrykeycanary@sentry.example/1',
  SENTRY_DSN_WEB: 'https://sentrywebkeycanary@sentry.example/2',
  METADATA_ALLOWED_PORTS: '443, 8443',
  METADATA_ALLOW_LOOPBACK: 'true',
};

/** What a variable needs beside it to matter (a provider's endpoints only count when it is enabled). */
const COMPANIONS: Record<string, string> = {
  AUTH_GITHUB_CLIENT_ID: 'github-id-base',
  AUTH_GITHUB_CLIENT_SECRET: 'github-secret-base',
  AUTH_DISCORD_CLIENT_ID: 'discord-id-base',
  AUTH_DISCORD_CLIENT_SECRET: 'discord-secret-base',
  AUTH_OIDC_ISSUER: 'https://base.example/',
  AUTH_OIDC_CLIENT_ID: 'oidc-id-base',
  UNLEASH_URL: 'https://base.example/unleash',
  UNLEASH_CLIENT_KEY: 'unleash-key-base',
};

/** The loaded configuration without what is derived for display and redaction. */
function loaded(config: AppConfig): Partial<AppConfig> {
  const { envView: _view, secretValues: _secrets, ...rest } = config;
  return rest;
}

describe('the table of variables', () => {
  it('has a sample for every variable (and no more)', () => {
    expect(Object.keys(SAMPLE).sort()).toEqual([...VARIABLE_NAMES].sort());
  });

  it('every variable reaches the loaded configuration', () => {
    const base = loadConfig(COMPANIONS);
    for (const name of VARIABLE_NAMES) {
      const withIt = loadConfig({ ...COMPANIONS, [name]: SAMPLE[name] });
      expect(loaded(withIt), `${name} changes nothing in the loaded configuration`).not.toEqual(
        loaded(base),
      );
    }
  });

  it('loading derives every field from the table', () => {
    const c = loadConfig(SAMPLE);
    expect(c).toEqual({
      nodeEnv: 'staging',
      production: false,
      port: 9090,
      baseUrl: 'https://sho.rt',
      db: {
        type: 'mysql',
        file: '/srv/shorts/shorts.db',
        mysql: {
          host: 'db.internal',
          port: 3307,
          username: 'app',
          password: 'db-pass-canary@x',
          database: 'shorts',
        },
      },
      dataDir: '/srv/shorts',
      appSecret: SAMPLE.APP_SECRET,
      redisUrl: SAMPLE.REDIS_URL,
      adminUsers: ['github:alice', 'discord:bob'],
      reportThreshold: 5,
      unleashUrl: SAMPLE.UNLEASH_URL,
      unleashClientKey: 'unleash-key-canary',
      flags: {
        'url.frontend.experimentSwitch': true,
        'url.frontend.statistics': false,
        'url.frontend.account.wizard': false,
        'url.frontend.languageSwitch': false,
        'url.frontend.maintenance': false,
        'url.frontend.shutdown': false,
      },
      sentryDsn: SAMPLE.SENTRY_DSN,
      sentryDsnWeb: SAMPLE.SENTRY_DSN_WEB,
      logLevel: 'debug',
      logFormat: 'pretty',
      logBufferSize: 50,
      logStdout: false,
      metricsToken: SAMPLE.METRICS_TOKEN,
      metadataAllowLoopback: true,
      metadataAllowedPorts: [443, 8443],
      anonRetentionDays: 30,
      stats: {
        enabled: false,
        retentionDays: 90,
        geoipDb: '/srv/geo/GeoLite2-Country.mmdb',
        countryHeader: 'cf-ipcountry',
        backlogMb: 8,
      },
      passwordMaxTries: 3,
      passwordLockSeconds: 60,
      shortCacheSize: 50,
      trustProxy: ['loopback', '10.0.0.0/8'],
      dbTimeoutMs: 5000,
      dns: { servers: ['127.0.0.1:5353', '9.9.9.9'], timeoutMs: 1500 },
      health: { job: false, timeoutMs: 800 },
      limits: {
        anonCreate: [
          { count: 2, windowMs: 1000, text: '2/s' },
          { count: 10, windowMs: 3_600_000, text: '10/h' },
        ],
        userCreate: [],
        qrRender: [{ count: 100, windowMs: 86_400_000, text: '100/d' }],
        healthCheck: [{ count: 3, windowMs: 3_600_000, text: '3/h' }],
        domainVerify: [{ count: 4, windowMs: 60_000, text: '4/min' }],
        bulk: [{ count: 20, windowMs: 60_000, text: '20/min' }],
        domains: 5,
        teams: 5,
        teamCreate: [{ count: 3, windowMs: 60_000, text: '3/min' }],
      },
      warnings: [],
      web: {
        dir: '/srv/shorts/web',
        imprintUrl: SAMPLE.FOOTER_IMPRINT_URL,
        privacyUrl: SAMPLE.FOOTER_PRIVACY_URL,
        termsUrl: SAMPLE.FOOTER_TERMS_URL,
        contactUrl: SAMPLE.FOOTER_CONTACT_URL,
        chatUrl: SAMPLE.FOOTER_CHAT_URL,
        services: [
          { name: 'Wiki', url: 'https://wiki.example.org' },
          { name: 'Git', url: 'https://git.example.org' },
        ],
        homeFigures: 'static',
        defaultLanguage: 'en',
      },
      auth: {
        github: {
          clientId: 'github-id-visible',
          clientSecret: 'github-secret-canary',
          authorizationUrl: SAMPLE.AUTH_GITHUB_AUTHORIZATION_URL,
          tokenUrl: SAMPLE.AUTH_GITHUB_TOKEN_URL,
          userProfileUrl: SAMPLE.AUTH_GITHUB_USER_PROFILE_URL,
          userEmailsUrl: SAMPLE.AUTH_GITHUB_USER_EMAILS_URL,
        },
        discord: {
          clientId: 'discord-id-visible',
          clientSecret: 'discord-secret-canary',
          authorizationUrl: SAMPLE.AUTH_DISCORD_AUTHORIZATION_URL,
          tokenUrl: SAMPLE.AUTH_DISCORD_TOKEN_URL,
          userProfileUrl: SAMPLE.AUTH_DISCORD_USER_PROFILE_URL,
          userEmailsUrl: SAMPLE.AUTH_DISCORD_USER_EMAILS_URL,
        },
        oidc: {
          issuer: SAMPLE.AUTH_OIDC_ISSUER,
          clientId: 'oidc-id-visible',
          clientSecret: 'oidc-secret-canary',
          name: 'Company SSO',
          scope: 'openid email',
        },
        devLogin: true,
        sessionIdleSeconds: 3600,
        sessionMaxAgeSeconds: 86400,
      },
      envView: environmentView(SAMPLE),
      secretValues: sensitiveValues(SAMPLE),
    });
  });

  it('keeps the providers’ public endpoints when not overridden', () => {
    const c = loadConfig(COMPANIONS);
    expect(c.auth.github).toMatchObject({
      authorizationUrl: 'https://github.com/login/oauth/authorize',
      tokenUrl: 'https://github.com/login/oauth/access_token',
      userProfileUrl: 'https://api.github.com/user',
      userEmailsUrl: 'https://api.github.com/user/emails',
    });
    expect(c.auth.discord).toMatchObject({
      authorizationUrl: 'https://discord.com/api/oauth2/authorize',
      tokenUrl: 'https://discord.com/api/oauth2/token',
      userProfileUrl: 'https://discord.com/api/users/@me',
    });
    expect(c.auth.discord?.userEmailsUrl).toBeUndefined();
    expect(c.auth.oidc).toMatchObject({ name: 'oidc', scope: 'openid profile email' });
  });

  it('validates an endpoint override only for an enabled provider, as before the table', () => {
    expect(() => loadConfig({ AUTH_GITHUB_TOKEN_URL: 'not a url' })).not.toThrow();
    expect(() => loadConfig({ ...COMPANIONS, AUTH_GITHUB_TOKEN_URL: 'not a url' })).toThrow(
      'AUTH_GITHUB_TOKEN_URL must be a http: or https: URL',
    );
  });

  it('marks every variable that looks like a secret as sensitive', () => {
    for (const name of VARIABLE_NAMES) {
      if (/SECRET|PASSWORD$|TOKEN$|_KEY$|DSN/.test(name)) {
        expect(VARIABLES[name] as { sensitive?: string }, name).toHaveProperty('sensitive');
      }
    }
  });
});

describe('/management/env view', () => {
  const view = environmentView({ ...SAMPLE, PATH: '/usr/bin', HOME: '/root' });

  it('shows every variable of the table that is set, and nothing else', () => {
    expect(Object.keys(view).sort()).toEqual([...VARIABLE_NAMES].sort());
    expect(view).not.toHaveProperty('PATH');
    expect(view).not.toHaveProperty('HOME');
  });

  it('masks every sensitive variable: secrets as set, URL passwords', () => {
    for (const name of VARIABLE_NAMES) {
      const sensitive = (VARIABLES[name] as { sensitive?: string }).sensitive;
      if (sensitive === 'secret') expect(view[name], name).toBe(MASK);
      else if (sensitive === 'url-with-credentials') {
        const password = new URL(SAMPLE[name]).password;
        expect(password, name).not.toBe('');
        expect(view[name], name).not.toContain(password);
        expect(view[name], name).toContain(`:${MASK}@`);
      } else expect(view[name], name).toBe(SAMPLE[name]);
    }
    expect(view.DB_URL).toBe('mysql://app:******@db.internal:3307/shorts');
    expect(view.AUTH_GITHUB_TOKEN_URL).toBe(SAMPLE.AUTH_GITHUB_TOKEN_URL);
  });

  it('lists unset secrets as null and leaves other unset variables out', () => {
    const empty = environmentView({ LOG_LEVEL: 'info' });
    for (const name of VARIABLE_NAMES) {
      const sensitive = (VARIABLES[name] as { sensitive?: string }).sensitive;
      if (sensitive === 'secret') expect(empty[name], name).toBeNull();
      else if (name !== 'LOG_LEVEL') expect(empty, name).not.toHaveProperty(name);
    }
    expect(empty.LOG_LEVEL).toBe('info');
  });

  it('is what the loaded configuration carries', () => {
    expect(loadConfig(SAMPLE).envView).toEqual(environmentView(SAMPLE));
  });
});

describe('the redactor’s secrets', () => {
  const canaries = (name: VariableName): string[] => {
    const v = SAMPLE[name];
    const sensitive = (VARIABLES[name] as { sensitive?: string }).sensitive;
    if (sensitive === 'url-with-credentials') {
      const password = new URL(v).password;
      return [v, password, decodeURIComponent(password)];
    }
    if (v.includes('://')) return [v, new URL(v).username]; // a DSN's key is its user name
    return [v];
  };
  const sensitive = VARIABLE_NAMES.filter(
    (n) => (VARIABLES[n] as { sensitive?: string }).sensitive !== undefined,
  );

  it('are every sensitive value of the table, with the credentials inside URLs', () => {
    expect(sensitive.length).toBeGreaterThanOrEqual(9);
    const values = sensitiveValues(SAMPLE);
    for (const name of sensitive) {
      for (const c of canaries(name)) expect(values, `${name}: ${c}`).toContain(c);
    }
    for (const name of VARIABLE_NAMES.filter((n) => !sensitive.includes(n))) {
      expect(values, name).not.toContain(SAMPLE[name]);
    }
  });

  it('never reach a log line (LogService is wired to the loaded configuration)', () => {
    const log = new LogService(loadConfig({ ...SAMPLE, LOG_LEVEL: 'info', LOG_STDOUT: 'false' }));
    for (const name of sensitive) {
      for (const c of canaries(name)) log.write('info', 'test', `${name} is ${c} here`);
    }
    const lines = log.recent().map((e) => e.message);
    expect(lines).toHaveLength(sensitive.flatMap(canaries).length);
    for (const name of sensitive) {
      for (const c of canaries(name)) {
        for (const line of lines) expect(line, `${name}: ${c}`).not.toContain(c);
      }
    }
  });

  it('also mask the APP_SECRET that boot resolved from the data folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-redact-'));
    const config = bootConfig({ DB_FILE: join(dir, 'db.sqlite'), LOG_STDOUT: 'false' });
    const log = new LogService(config);
    log.write('info', 'test', `secret ${config.appSecret}`);
    expect(log.recent()[0].message).toBe(`secret ${MASK}`);
  });

  it('survive credentials that are no valid percent-encoding', () => {
    const env = {
      REDIS_URL: 'redis://u:50%zz@cache:6379',
      SENTRY_DSN: 'https://k%zzey@s.example/1',
    };
    expect(sensitiveValues(env)).toEqual(expect.arrayContaining(['50%zz', 'k%zzey']));
    expect(() => loadConfig(env)).not.toThrow();
  });

  it('match what a Redactor masks', () => {
    const r = new Redactor();
    r.addSecrets(sensitiveValues(SAMPLE));
    expect(r.scrub(`connect ${SAMPLE.DB_URL}`)).toBe(`connect ${MASK}`);
    expect(r.scrub('pw db-pass-canary@x')).toBe(`pw ${MASK}`);
    expect(r.scrub('key sentrykeycanary')).toBe(`key ${MASK}`);
  });
});

describe('APP_SECRET at boot', () => {
  it('loading is pure: no secret file is written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-pure-'));
    const c = loadConfig({ DB_FILE: join(dir, 'db.sqlite') });
    expect(c.appSecret).toBeUndefined();
    expect(existsSync(join(dir, 'app-secret'))).toBe(false);
    expect(() => appSecretOf(c)).toThrow(/APP_SECRET is not resolved/);
  });

  it('bootConfig generates it once into the data folder (0600) and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-boot-'));
    const env = { DB_FILE: join(dir, 'nested', 'db.sqlite') };
    const first = bootConfig(env);
    expect(first.appSecret.length).toBeGreaterThanOrEqual(32);
    const file = join(dir, 'nested', 'app-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first.appSecret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(bootConfig(env).appSecret).toBe(first.appSecret);
    expect(appSecretOf(first)).toBe(first.appSecret);
  });

  it('uses the file another instance wrote first', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-other-'));
    const theirs = 'written-by-another-instance-'.padEnd(48, 'z');
    writeFileSync(join(dir, 'app-secret'), `${theirs}\n`, { mode: 0o600 });
    expect(bootConfig({ DB_FILE: join(dir, 'db.sqlite') }).appSecret).toBe(theirs);
  });

  it('prefers APP_SECRET and writes nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-explicit-'));
    const c = bootConfig({ DB_FILE: join(dir, 'db.sqlite'), APP_SECRET: SAMPLE.APP_SECRET });
    expect(c.appSecret).toBe(SAMPLE.APP_SECRET);
    expect(existsSync(join(dir, 'app-secret'))).toBe(false);
  });
});

describe('the environment', () => {
  it('is read by src/config/config.ts only', () => {
    const readers = readdirSync('src', { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))
      .filter((f) => readFileSync(join('src', f), 'utf8').includes('process.env'));
    expect(readers).toEqual([join('config', 'config.ts')]);
  });
});
