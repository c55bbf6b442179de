import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config';
import { describeDatabase, describeRedis, offFeatures, startupSummary } from './startup-summary';

const SECRET = 'Pw-canary-1234';

function allLines(env: Record<string, string>): string[] {
  const s = startupSummary(loadConfig(env));
  return [...s.beforeListen, s.listening(Number(env.PORT ?? 8080))];
}

describe('the start summary', () => {
  it('says version, URL (with the port the server got), database, Redis, logins and what is off in six lines', () => {
    const lines = allLines({
      PORT: '9090',
      BASE_URL: 'https://sho.rt',
      DB_FILE: '/srv/s/db.sqlite',
    });
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatch(/^URL-Shorter \d+\.\d+\.\d+ \(Node\.js .*, NODE_ENV=development\)$/);
    expect(lines).toContain('Database: SQLite /srv/s/db.sqlite');
    expect(lines).toContain('Redis: off (cache, sessions and rate limits in this process only)');
    expect(lines).toContain('Login: none (nobody can log in; anonymous shorts only)');
    expect(lines).toContain('Off: Sentry, Unleash (flags from FLAGS), metrics scrape token');
    expect(lines[5]).toBe('URL-Shorter listening on https://sho.rt (port 9090)');
  });

  it('shows a MariaDB/MySQL server without its user or password', () => {
    const config = loadConfig({ DB_URL: `mysql://shortuser:${SECRET}@db.internal:3307/shorts` });
    expect(describeDatabase(config.db)).toBe('MariaDB/MySQL db.internal:3307/shorts');
    const lines = allLines({ DB_URL: `mariadb://shortuser:${SECRET}@db.internal/shorts` });
    expect(lines).toContain('Database: MariaDB/MySQL db.internal:3306/shorts');
    for (const line of lines) {
      expect(line).not.toContain(SECRET);
      expect(line).not.toContain('shortuser');
    }
  });

  it('shows a PostgreSQL server without its user or password', () => {
    const encoded = encodeURIComponent(`${SECRET}@:/`);
    const lines = allLines({ DB_URL: `postgres://pguser:${encoded}@[::1]:5433/links` });
    expect(lines).toContain('Database: PostgreSQL [::1]:5433/links');
    expect(allLines({ DB_URL: `postgresql://pguser:${SECRET}@pg/links` })).toContain(
      'Database: PostgreSQL pg:5432/links',
    );
    for (const line of lines) {
      expect(line).not.toContain(SECRET);
      expect(line).not.toContain(encoded);
      expect(line).not.toContain('pguser');
    }
  });

  it('shows Redis as host:port, never its credentials', () => {
    expect(describeRedis(`redis://cacheuser:${SECRET}@cache.internal:6380/2`)).toBe(
      'cache.internal:6380 database 2',
    );
    expect(describeRedis(`rediss://:${SECRET}@cache`)).toBe('cache:6379 (TLS)');
    expect(describeRedis(undefined)).toMatch(/^off/);
  });

  it('names the login providers configured', () => {
    const lines = allLines({
      AUTH_GITHUB_CLIENT_ID: 'gh-id',
      AUTH_GITHUB_CLIENT_SECRET: 'gh-secret-canary',
      AUTH_DISCORD_CLIENT_ID: 'dc-id',
      AUTH_DISCORD_CLIENT_SECRET: 'dc-secret-canary',
      AUTH_OIDC_ISSUER: 'https://id.example/',
      AUTH_OIDC_CLIENT_ID: 'oidc-id',
      AUTH_OIDC_NAME: 'Company SSO',
      AUTH_DEV_LOGIN: 'true',
    });
    expect(lines).toContain('Login: GitHub, Discord, OIDC (Company SSO), development login');
    expect(lines.join('\n')).not.toMatch(/secret-canary/);
  });

  it('lists what is off, and nothing when everything is on', () => {
    expect(
      offFeatures(
        loadConfig({
          SENTRY_DSN_WEB: 'https://key@sentry.example/2',
          STATS_ENABLED: 'false',
          HEALTH_CHECK: 'false',
          LIMIT_DOMAINS: '0',
          LIMIT_ANON_CREATE: 'off',
          LIMIT_QR_RENDER: 'off',
        }),
      ),
    ).toEqual([
      'Sentry (server)',
      'Unleash (flags from FLAGS)',
      'statistics',
      'link-health job',
      'own domains',
      'metrics scrape token',
      'rate limits of anonymous creates, QR renders',
    ]);
    const on = loadConfig({
      SENTRY_DSN: 'https://key@sentry.example/1',
      SENTRY_DSN_WEB: 'https://key@sentry.example/2',
      UNLEASH_URL: 'https://unleash.example/api/frontend',
      UNLEASH_CLIENT_KEY: 'unleash-key',
      METRICS_TOKEN: 'metrics-token-0123456789',
    });
    expect(offFeatures(on)).toEqual([]);
    expect(startupSummary(on).beforeListen).toContain('Off: nothing');
  });
});
