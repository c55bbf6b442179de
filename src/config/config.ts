import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { compileTrust, type TrustProxySetting } from '../common/client-address';

export const APP_CONFIG = Symbol('APP_CONFIG');

/** The app's version, from package.json (kept here for the modules that import it from config). */
export { APP_VERSION } from './version';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

export interface DatabaseConfig {
  type: 'sqlite' | 'mysql';
  /** SQLite file (absolute) when type is sqlite. */
  file: string;
  /** Parsed MySQL/MariaDB connection when type is mysql. */
  mysql?: { host: string; port: number; username: string; password: string; database: string };
}

export interface AppConfig {
  nodeEnv: string;
  production: boolean;
  port: number;
  baseUrl: string;
  db: DatabaseConfig;
  dataDir: string;
  /** Explicit APP_SECRET; when absent one is generated into the data folder at boot. */
  appSecret?: string;
  redisUrl?: string;
  adminUsers: string[];
  reportThreshold: number;
  unleashUrl?: string;
  unleashClientKey?: string;
  flags: Record<string, boolean>;
  sentryDsn?: string;
  sentryDsnWeb?: string;
  logLevel: LogLevel;
  /** Lines kept in memory for /management/logs (LOG_BUFFER_SIZE). */
  logBufferSize: number;
  /** Write log lines to stdout (LOG_STDOUT, default true; tests may turn it off). */
  logStdout: boolean;
  /** Bearer token that may scrape /management/prometheus without an admin session (METRICS_TOKEN). */
  metricsToken?: string;
  metadataAllowLoopback: boolean;
  metadataAllowedPorts: number[];
  /** Days an expired anonymous short is kept before the cleanup job removes it. */
  anonRetentionDays: number;
  /** Wrong password tries per short and client before the follow answers `locked`. */
  passwordMaxTries: number;
  passwordLockSeconds: number;
  shortCacheSize: number;
  /**
   * Which proxies in front of the app are trusted (TRUST_PROXY): none (`false`), a hop count, or a
   * list of addresses/CIDRs (`loopback`, `10.0.0.0/8`, …). The client address is the right-most
   * X-Forwarded-For entry that is not trusted (see common/client-address.ts).
   */
  trustProxy: TrustProxySetting;
  /** Connect, pool acquire and query timeout of the database in ms (DB_TIMEOUT_MS). */
  dbTimeoutMs: number;
  /** Non-fatal configuration remarks (deprecated forms), logged once at boot. */
  warnings: string[];
  /** The built web client and what its runtime-config island tells it (WEB_DIR, FOOTER_*). */
  web: WebConfig;
  /** Login providers and sessions (AUTH_*, SESSION_*). */
  auth: AuthConfig;
  /** Raw environment, kept only for modules that own further variables (e.g. AUTH_*). */
  env: Readonly<Record<string, string | undefined>>;
}

export interface OAuthProviderConfig {
  clientId: string;
  clientSecret: string;
  authorizationUrl: string;
  tokenUrl: string;
  userProfileUrl: string;
  userEmailsUrl?: string;
}

export interface OidcProviderConfig {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  /** Display name in the provider list (the login path is always /api/auth/oidc). */
  name: string;
  scope: string;
}

export interface AuthConfig {
  github?: OAuthProviderConfig;
  discord?: OAuthProviderConfig;
  oidc?: OidcProviderConfig;
  /** Local development login (AUTH_DEV_LOGIN); refused when NODE_ENV=production. */
  devLogin: boolean;
  /** Session ends after this many seconds without a request (SESSION_IDLE_TIMEOUT). */
  sessionIdleSeconds: number;
  /** Session ends this many seconds after login, however active (SESSION_MAX_AGE). */
  sessionMaxAgeSeconds: number;
}

export interface FooterLink {
  name: string;
  url: string;
}

export interface WebConfig {
  /** Folder of the built client (index.html + assets); default dist/web. */
  dir: string;
  imprintUrl?: string;
  privacyUrl?: string;
  termsUrl?: string;
  contactUrl?: string;
  chatUrl?: string;
  /** Links to the operator's other services (FOOTER_SERVICES="Name=https://…,Other=https://…"). */
  services: FooterLink[];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

export const FLAG_NAMES = [
  'url.frontend.experimentSwitch',
  'url.frontend.statistics',
  'url.frontend.account.wizard',
  'url.frontend.languageSwitch',
  'url.frontend.maintenance',
  'url.frontend.shutdown',
] as const;

type Env = Readonly<Record<string, string | undefined>>;

class Reader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  str(name: string): string | undefined {
    const v = this.env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  }

  int(name: string, def: number, min: number, max: number): number {
    const raw = this.str(name);
    if (raw === undefined) return def;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      this.problems.push(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
      return def;
    }
    return Number(raw);
  }

  bool(name: string, def: boolean): boolean {
    const raw = this.str(name)?.toLowerCase();
    if (raw === undefined) return def;
    if (['true', '1', 'yes', 'on'].includes(raw)) return true;
    if (['false', '0', 'no', 'off'].includes(raw)) return false;
    this.problems.push(`${name} must be true or false (got "${raw}")`);
    return def;
  }

  url(name: string, protocols: string[]): string | undefined {
    const raw = this.str(name);
    if (raw === undefined) return undefined;
    try {
      const u = new URL(raw);
      if (!protocols.includes(u.protocol)) throw new Error('protocol');
      return raw;
    } catch {
      this.problems.push(`${name} must be a ${protocols.join(' or ')} URL`);
      return undefined;
    }
  }
}

function parseMysqlUrl(r: Reader, raw: string): DatabaseConfig['mysql'] {
  try {
    const u = new URL(raw);
    if (u.protocol !== 'mysql:' && u.protocol !== 'mariadb:') throw new Error('protocol');
    const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
    if (!u.hostname || !database) throw new Error('incomplete');
    return {
      host: u.hostname.replace(/^\[|\]$/g, ''),
      port: u.port ? Number(u.port) : 3306,
      username: decodeURIComponent(u.username || 'root'),
      password: decodeURIComponent(u.password),
      database,
    };
  } catch {
    // Never echo the value: it carries the database password.
    r.problems.push('DB_URL must look like mysql://user:pass@host:port/database');
    return undefined;
  }
}

/**
 * TRUST_PROXY: `false` (default), a hop count (`1` = trust the proxy the app sees), or a comma list
 * of trusted proxy addresses/CIDRs and the names `loopback`, `linklocal`, `uniquelocal`.
 * `true` is read as one hop (deprecated: it used to trust the left-most, client-chosen address).
 */
function parseTrustProxy(r: Reader, warnings: string[]): TrustProxySetting {
  const raw = r.str('TRUST_PROXY');
  if (raw === undefined) return false;
  const lower = raw.toLowerCase();
  if (['false', 'no', 'off'].includes(lower)) return false;
  if (['true', 'yes', 'on'].includes(lower)) {
    warnings.push(
      'TRUST_PROXY=true is deprecated and now means one proxy hop (TRUST_PROXY=1); set a hop count or the proxy addresses',
    );
    return 1;
  }
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 32) r.problems.push('TRUST_PROXY hop count must be at most 32');
    return hops === 0 ? false : hops;
  }
  const list = raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  try {
    compileTrust(list);
  } catch {
    r.problems.push(
      `TRUST_PROXY must be false, a hop count, or a comma list of addresses/CIDRs and loopback, linklocal, uniquelocal (got "${raw}")`,
    );
    return false;
  }
  return list;
}

function parseFlags(r: Reader, raw: string | undefined): Record<string, boolean> {
  const flags: Record<string, boolean> = Object.fromEntries(FLAG_NAMES.map((n) => [n, false]));
  flags['url.frontend.experimentSwitch'] = true;
  if (!raw) return flags;
  for (const part of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([A-Za-z0-9._-]+)=(on|off|true|false)$/.exec(part);
    if (!m) {
      r.problems.push(`FLAGS entry "${part}" must look like name=on or name=off`);
      continue;
    }
    const name = m[1].startsWith('url.frontend.') ? m[1] : `url.frontend.${m[1]}`;
    flags[name] = m[2] === 'on' || m[2] === 'true';
  }
  return flags;
}

function loadOAuthProvider(
  r: Reader,
  prefix: string,
  defaults: Omit<OAuthProviderConfig, 'clientId' | 'clientSecret'>,
): OAuthProviderConfig | undefined {
  const clientId = r.str(`${prefix}_CLIENT_ID`);
  const clientSecret = r.str(`${prefix}_CLIENT_SECRET`);
  if (!clientId && !clientSecret) return undefined;
  if (!clientId || !clientSecret) {
    r.problems.push(`${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET must be set together`);
    return undefined;
  }
  const web = ['http:', 'https:'];
  return {
    clientId,
    clientSecret,
    authorizationUrl: r.url(`${prefix}_AUTHORIZATION_URL`, web) ?? defaults.authorizationUrl,
    tokenUrl: r.url(`${prefix}_TOKEN_URL`, web) ?? defaults.tokenUrl,
    userProfileUrl: r.url(`${prefix}_USER_PROFILE_URL`, web) ?? defaults.userProfileUrl,
    userEmailsUrl: r.url(`${prefix}_USER_EMAILS_URL`, web) ?? defaults.userEmailsUrl,
  };
}

function loadAuthConfig(r: Reader, production: boolean): AuthConfig {
  const github = loadOAuthProvider(r, 'AUTH_GITHUB', {
    authorizationUrl: 'https://github.com/login/oauth/authorize',
    tokenUrl: 'https://github.com/login/oauth/access_token',
    userProfileUrl: 'https://api.github.com/user',
    userEmailsUrl: 'https://api.github.com/user/emails',
  });
  const discord = loadOAuthProvider(r, 'AUTH_DISCORD', {
    authorizationUrl: 'https://discord.com/api/oauth2/authorize',
    tokenUrl: 'https://discord.com/api/oauth2/token',
    userProfileUrl: 'https://discord.com/api/users/@me',
  });
  let oidc: OidcProviderConfig | undefined;
  const issuer = r.url('AUTH_OIDC_ISSUER', ['http:', 'https:']);
  const oidcClientId = r.str('AUTH_OIDC_CLIENT_ID');
  if (issuer || oidcClientId) {
    const name = r.str('AUTH_OIDC_NAME') ?? 'oidc';
    if (!issuer || !oidcClientId) {
      r.problems.push('AUTH_OIDC_ISSUER and AUTH_OIDC_CLIENT_ID must be set together');
    } else if (name.length > 64) {
      r.problems.push('AUTH_OIDC_NAME must be at most 64 characters');
    } else {
      oidc = {
        issuer,
        clientId: oidcClientId,
        clientSecret: r.str('AUTH_OIDC_CLIENT_SECRET'),
        name,
        scope: r.str('AUTH_OIDC_SCOPE') ?? 'openid profile email',
      };
    }
  }
  const devLogin = r.bool('AUTH_DEV_LOGIN', false);
  if (devLogin && production)
    r.problems.push('AUTH_DEV_LOGIN=true is refused when NODE_ENV=production');
  const sessionIdleSeconds = r.int('SESSION_IDLE_TIMEOUT', 7 * 86400, 60, 365 * 86400);
  const sessionMaxAgeSeconds = r.int('SESSION_MAX_AGE', 30 * 86400, 60, 3650 * 86400);
  return { github, discord, oidc, devLogin, sessionIdleSeconds, sessionMaxAgeSeconds };
}

function loadWebConfig(r: Reader): WebConfig {
  const web = ['http:', 'https:'];
  const services: FooterLink[] = [];
  for (const part of (r.str('FOOTER_SERVICES') ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const i = part.indexOf('=');
    const name = i > 0 ? part.slice(0, i).trim() : '';
    const url = i > 0 ? part.slice(i + 1).trim() : '';
    if (!name || !/^https?:\/\/\S+$/.test(url)) {
      r.problems.push(`FOOTER_SERVICES entry "${part}" must look like Name=https://…`);
      continue;
    }
    services.push({ name, url });
  }
  return {
    dir: resolve(r.str('WEB_DIR') ?? 'dist/web'),
    imprintUrl: r.url('FOOTER_IMPRINT_URL', web),
    privacyUrl: r.url('FOOTER_PRIVACY_URL', web),
    termsUrl: r.url('FOOTER_TERMS_URL', web),
    contactUrl: r.url('FOOTER_CONTACT_URL', [...web, 'mailto:']),
    chatUrl: r.url('FOOTER_CHAT_URL', web),
    services,
  };
}

/** Reads and validates the whole configuration. The only reader of the environment. */
export function loadConfig(env: Env = process.env): AppConfig {
  const r = new Reader(env);
  const nodeEnv = r.str('NODE_ENV') ?? 'development';
  const production = nodeEnv === 'production';
  const port = r.int('PORT', 8080, 0, 65535);
  const baseUrl = (r.url('BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(
    /\/+$/,
    '',
  );

  const dbUrl = r.str('DB_URL');
  const dbFile = resolve(r.str('DB_FILE') ?? 'data/url-shorter.db');
  const db: DatabaseConfig = dbUrl
    ? { type: 'mysql', file: dbFile, mysql: parseMysqlUrl(r, dbUrl) }
    : { type: 'sqlite', file: dbFile };

  const logLevel = (r.str('LOG_LEVEL') ?? 'info').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    r.problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  }

  const metadataAllowLoopback = r.bool('METADATA_ALLOW_LOOPBACK', false);
  if (metadataAllowLoopback && production) {
    r.problems.push('METADATA_ALLOW_LOOPBACK=true is refused when NODE_ENV=production');
  }
  const portsRaw = r.str('METADATA_ALLOWED_PORTS') ?? '80,443';
  const metadataAllowedPorts = portsRaw.split(',').map((p) => Number(p.trim()));
  if (metadataAllowedPorts.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) {
    r.problems.push('METADATA_ALLOWED_PORTS must be a comma-separated list of ports');
  }

  const appSecret = r.str('APP_SECRET');
  if (appSecret !== undefined && appSecret.length < 32) {
    r.problems.push('APP_SECRET must be at least 32 characters long');
  }

  const adminUsers = (r.str('ADMIN_USERS') ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const a of adminUsers) {
    if (!/^[a-z0-9_-]+:.+$/.test(a))
      r.problems.push(`ADMIN_USERS entry "${a}" must be provider:username`);
  }

  const metricsToken = r.str('METRICS_TOKEN');
  if (metricsToken !== undefined && metricsToken.length < 16) {
    r.problems.push('METRICS_TOKEN must be at least 16 characters long');
  }

  const unleashUrl = r.url('UNLEASH_URL', ['http:', 'https:']);
  const unleashClientKey = r.str('UNLEASH_CLIENT_KEY');
  if (unleashUrl && !unleashClientKey) r.problems.push('UNLEASH_URL needs UNLEASH_CLIENT_KEY');

  const auth = loadAuthConfig(r, production);
  const warnings: string[] = [];

  const config: AppConfig = {
    nodeEnv,
    production,
    port,
    baseUrl,
    db,
    dataDir: dirname(dbFile),
    appSecret,
    redisUrl: r.url('REDIS_URL', ['redis:', 'rediss:']),
    adminUsers,
    reportThreshold: r.int('REPORT_THRESHOLD', 3, 1, 1000),
    unleashUrl,
    unleashClientKey,
    flags: parseFlags(r, r.str('FLAGS')),
    sentryDsn: r.url('SENTRY_DSN', ['http:', 'https:']),
    sentryDsnWeb: r.url('SENTRY_DSN_WEB', ['http:', 'https:']),
    logLevel,
    logBufferSize: r.int('LOG_BUFFER_SIZE', 1000, 0, 100_000),
    logStdout: r.bool('LOG_STDOUT', true),
    metricsToken,
    metadataAllowLoopback,
    metadataAllowedPorts,
    anonRetentionDays: r.int('ANON_RETENTION_DAYS', 7, 0, 3650),
    passwordMaxTries: r.int('PASSWORD_MAX_TRIES', 10, 1, 1000),
    passwordLockSeconds: r.int('PASSWORD_LOCK_SECONDS', 900, 1, 86400),
    shortCacheSize: r.int('SHORT_CACHE_SIZE', 10000, 0, 10_000_000),
    trustProxy: parseTrustProxy(r, warnings),
    dbTimeoutMs: r.int('DB_TIMEOUT_MS', 2000, 100, 60_000),
    warnings,
    web: loadWebConfig(r),
    auth,
    env,
  };
  if (r.problems.length) throw new ConfigError(r.problems);
  return config;
}

/**
 * APP_SECRET, or the one stored in the data folder (generated on first start).
 * The file is created with mode 0600.
 */
export function resolveAppSecret(config: AppConfig): string {
  if (config.appSecret) return config.appSecret;
  const file = resolve(config.dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  try {
    writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another instance created it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw err;
  }
  return secret;
}
