import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { TrustProxySetting } from '../common/client-address';
import type { LimitRule } from './limit-rule';
import type { Language } from '../shared/language';
import {
  type Env,
  environmentView,
  type FooterLink,
  type HomeFigures,
  type LogFormat,
  type LogLevel,
  type MysqlConnection,
  rawValue,
  sensitiveValues,
  VariableReader,
} from './variables';

export {
  FLAG_NAMES,
  type FooterLink,
  type HomeFigures,
  type LogFormat,
  type LogLevel,
} from './variables';

export const APP_CONFIG = Symbol('APP_CONFIG');

/** The app's version, from package.json (kept here for the modules that import it from config). */
export { APP_VERSION } from './version';

export interface DatabaseConfig {
  type: 'sqlite' | 'mysql' | 'postgres';
  /** SQLite file (absolute) when type is sqlite. */
  file: string;
  /** Parsed MySQL/MariaDB connection when type is mysql. */
  mysql?: MysqlConnection;
  /** Parsed PostgreSQL connection when type is postgres. */
  postgres?: MysqlConnection;
}

export interface AppConfig {
  nodeEnv: string;
  production: boolean;
  port: number;
  baseUrl: string;
  db: DatabaseConfig;
  dataDir: string;
  /**
   * APP_SECRET. Loading leaves it unset when the variable is; the boot step (`bootConfig`) sets the
   * one stored in the data folder (generated on first start). Read it with `appSecretOf`.
   */
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
  /** JSON lines or readable ones on stdout (LOG_FORMAT; default: `chooseLogFormat`). */
  logFormat: LogFormat;
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
  /** Visit statistics (CONTRACT "Statistics"). */
  stats: {
    enabled: boolean;
    retentionDays: number;
    /** A country .mmdb file; undefined: the embedded iptoasn database. */
    geoipDb: string | undefined;
    /** Lower-case header name of a CDN's country header (only with TRUST_PROXY). */
    countryHeader: string | undefined;
    /** MiB of heap the statistics not yet written may take (STATS_BACKLOG_MB). */
    backlogMb: number;
  };
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
  /** Link health (HEALTH_CHECK: the daily job on or off; HEALTH_CHECK_TIMEOUT_MS: one check). */
  health: { job: boolean; timeoutMs: number };
  /** Own domains' DNS verification (DNS_SERVERS: empty = the system's; DNS_TIMEOUT_MS). */
  dns: { servers: string[]; timeoutMs: number };
  /** Rate limits (LIMIT_*; CONTRACT "Limits"): no rules means off. */
  limits: {
    anonCreate: LimitRule[];
    userCreate: LimitRule[];
    qrRender: LimitRule[];
    healthCheck: LimitRule[];
    domainVerify: LimitRule[];
    /** Bulk edits per user (LIMIT_BULK). */
    bulk: LimitRule[];
    /** Own domains per user, pending included (LIMIT_DOMAINS). */
    domains: number;
    /** Teams a user owns or belongs to (LIMIT_TEAMS). */
    teams: number;
    /** Teams created per user and per client address (LIMIT_TEAM_CREATE). */
    teamCreate: LimitRule[];
  };
  /** Connect, pool acquire and query timeout of the database in ms (DB_TIMEOUT_MS). */
  dbTimeoutMs: number;
  /** Non-fatal configuration remarks (deprecated forms), logged once at boot. */
  warnings: string[];
  /** The built web client and what its runtime-config island tells it (WEB_DIR, FOOTER_*). */
  web: WebConfig;
  /** Login providers and sessions (AUTH_*, SESSION_*). */
  auth: AuthConfig;
  /**
   * The configuration variables as /management/env shows them (src/config/variables.ts): set
   * variables of the table only, secrets as set/unset, URLs with their password masked.
   */
  envView: Readonly<Record<string, string | null>>;
  /** Values of the sensitive variables (and passwords inside URLs) that no log line may carry. */
  secretValues: readonly string[];
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
  /** The start page's figure cards (HOME_FIGURES): fixed, this instance's counts, or none. */
  homeFigures: HomeFigures;
  /** The instance's language (DEFAULT_LANGUAGE): the client's without the switch, the pages' fallback. */
  defaultLanguage: Language;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

function loadOAuthProvider(
  r: VariableReader,
  clientId: string | undefined,
  clientSecret: string | undefined,
  prefix: string,
  endpoints: () => Omit<OAuthProviderConfig, 'clientId' | 'clientSecret'>,
): OAuthProviderConfig | undefined {
  if (!clientId && !clientSecret) return undefined;
  if (!clientId || !clientSecret) {
    r.problems.push(`${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET must be set together`);
    return undefined;
  }
  // The endpoint overrides are read (and validated) only for a provider that is enabled.
  return { clientId, clientSecret, ...endpoints() };
}

function loadAuthConfig(r: VariableReader, production: boolean): AuthConfig {
  const github = loadOAuthProvider(
    r,
    r.get('AUTH_GITHUB_CLIENT_ID'),
    r.get('AUTH_GITHUB_CLIENT_SECRET'),
    'AUTH_GITHUB',
    () => ({
      authorizationUrl: r.get('AUTH_GITHUB_AUTHORIZATION_URL'),
      tokenUrl: r.get('AUTH_GITHUB_TOKEN_URL'),
      userProfileUrl: r.get('AUTH_GITHUB_USER_PROFILE_URL'),
      userEmailsUrl: r.get('AUTH_GITHUB_USER_EMAILS_URL'),
    }),
  );
  const discord = loadOAuthProvider(
    r,
    r.get('AUTH_DISCORD_CLIENT_ID'),
    r.get('AUTH_DISCORD_CLIENT_SECRET'),
    'AUTH_DISCORD',
    () => ({
      authorizationUrl: r.get('AUTH_DISCORD_AUTHORIZATION_URL'),
      tokenUrl: r.get('AUTH_DISCORD_TOKEN_URL'),
      userProfileUrl: r.get('AUTH_DISCORD_USER_PROFILE_URL'),
      userEmailsUrl: r.get('AUTH_DISCORD_USER_EMAILS_URL'),
    }),
  );
  let oidc: OidcProviderConfig | undefined;
  const issuer = r.get('AUTH_OIDC_ISSUER');
  const oidcClientId = r.get('AUTH_OIDC_CLIENT_ID');
  if (issuer || oidcClientId) {
    const name = r.get('AUTH_OIDC_NAME');
    if (!issuer || !oidcClientId) {
      r.problems.push('AUTH_OIDC_ISSUER and AUTH_OIDC_CLIENT_ID must be set together');
    } else if (name.length > 64) {
      r.problems.push('AUTH_OIDC_NAME must be at most 64 characters');
    } else {
      oidc = {
        issuer,
        clientId: oidcClientId,
        clientSecret: r.get('AUTH_OIDC_CLIENT_SECRET'),
        name,
        scope: r.get('AUTH_OIDC_SCOPE'),
      };
    }
  }
  const devLogin = r.get('AUTH_DEV_LOGIN');
  if (devLogin && production)
    r.problems.push('AUTH_DEV_LOGIN=true is refused when NODE_ENV=production');
  const sessionIdleSeconds = r.get('SESSION_IDLE_TIMEOUT');
  const sessionMaxAgeSeconds = r.get('SESSION_MAX_AGE');
  return { github, discord, oidc, devLogin, sessionIdleSeconds, sessionMaxAgeSeconds };
}

function loadWebConfig(r: VariableReader): WebConfig {
  const services = r.get('FOOTER_SERVICES');
  return {
    dir: r.get('WEB_DIR'),
    imprintUrl: r.get('FOOTER_IMPRINT_URL'),
    privacyUrl: r.get('FOOTER_PRIVACY_URL'),
    termsUrl: r.get('FOOTER_TERMS_URL'),
    contactUrl: r.get('FOOTER_CONTACT_URL'),
    chatUrl: r.get('FOOTER_CHAT_URL'),
    services,
    homeFigures: r.get('HOME_FIGURES'),
    defaultLanguage: r.get('DEFAULT_LANGUAGE'),
  };
}

/**
 * Reads and validates the whole configuration from the table of variables (variables.ts): every
 * problem is collected and reported at once, secrets are never echoed. The only reader of the
 * environment; pure (no files written: APP_SECRET's fallback is the boot step, `bootConfig`).
 */
export function loadConfig(env: Env = process.env): AppConfig {
  const r = new VariableReader(env);
  const nodeEnv = r.get('NODE_ENV');
  const production = nodeEnv === 'production';
  const port = r.get('PORT');
  const baseUrl = (r.get('BASE_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');

  const server = r.get('DB_URL');
  const dbFile = r.get('DB_FILE');
  const db: DatabaseConfig =
    server?.engine === 'postgres'
      ? { type: 'postgres', file: dbFile, postgres: server.connection }
      : rawValue(env, 'DB_URL') !== undefined
        ? { type: 'mysql', file: dbFile, mysql: server?.connection }
        : { type: 'sqlite', file: dbFile };

  const logLevel = r.get('LOG_LEVEL');
  const logFormat = chooseLogFormat(r.get('LOG_FORMAT'), {
    tty: process.stdout.isTTY === true,
    production,
  });

  const metadataAllowLoopback = r.get('METADATA_ALLOW_LOOPBACK');
  if (metadataAllowLoopback && production) {
    r.problems.push('METADATA_ALLOW_LOOPBACK=true is refused when NODE_ENV=production');
  }
  const metadataAllowedPorts = r.get('METADATA_ALLOWED_PORTS');
  const appSecret = r.get('APP_SECRET');
  const adminUsers = r.get('ADMIN_USERS');
  const metricsToken = r.get('METRICS_TOKEN');

  const unleashUrl = r.get('UNLEASH_URL');
  const unleashClientKey = r.get('UNLEASH_CLIENT_KEY');
  if (unleashUrl && !unleashClientKey) r.problems.push('UNLEASH_URL needs UNLEASH_CLIENT_KEY');

  const auth = loadAuthConfig(r, production);

  const config: AppConfig = {
    nodeEnv,
    production,
    port,
    baseUrl,
    db,
    dataDir: dirname(dbFile),
    appSecret,
    redisUrl: r.get('REDIS_URL'),
    adminUsers,
    reportThreshold: r.get('REPORT_THRESHOLD'),
    unleashUrl,
    unleashClientKey,
    flags: r.get('FLAGS'),
    sentryDsn: r.get('SENTRY_DSN'),
    sentryDsnWeb: r.get('SENTRY_DSN_WEB'),
    logLevel,
    logFormat,
    logBufferSize: r.get('LOG_BUFFER_SIZE'),
    logStdout: r.get('LOG_STDOUT'),
    metricsToken,
    metadataAllowLoopback,
    metadataAllowedPorts,
    anonRetentionDays: r.get('ANON_RETENTION_DAYS'),
    stats: {
      enabled: r.get('STATS_ENABLED'),
      retentionDays: r.get('STATS_RETENTION_DAYS'),
      geoipDb: r.get('GEOIP_DB'),
      countryHeader: r.get('GEO_COUNTRY_HEADER')?.trim().toLowerCase() || undefined,
      backlogMb: r.get('STATS_BACKLOG_MB'),
    },
    passwordMaxTries: r.get('PASSWORD_MAX_TRIES'),
    passwordLockSeconds: r.get('PASSWORD_LOCK_SECONDS'),
    shortCacheSize: r.get('SHORT_CACHE_SIZE'),
    trustProxy: r.get('TRUST_PROXY'),
    dbTimeoutMs: r.get('DB_TIMEOUT_MS'),
    dns: { servers: r.get('DNS_SERVERS'), timeoutMs: r.get('DNS_TIMEOUT_MS') },
    health: { job: r.get('HEALTH_CHECK'), timeoutMs: r.get('HEALTH_CHECK_TIMEOUT_MS') },
    limits: {
      anonCreate: r.get('LIMIT_ANON_CREATE'),
      userCreate: r.get('LIMIT_USER_CREATE'),
      qrRender: r.get('LIMIT_QR_RENDER'),
      healthCheck: r.get('LIMIT_HEALTH_CHECK'),
      domainVerify: r.get('LIMIT_DOMAIN_VERIFY'),
      bulk: r.get('LIMIT_BULK'),
      domains: r.get('LIMIT_DOMAINS'),
      teams: r.get('LIMIT_TEAMS'),
      teamCreate: r.get('LIMIT_TEAM_CREATE'),
    },
    warnings: r.warnings,
    web: loadWebConfig(r),
    auth,
    envView: environmentView(env),
    secretValues: sensitiveValues(env),
  };
  if (r.problems.length) throw new ConfigError(r.problems);
  return config;
}

/**
 * LOG_FORMAT when set; else `pretty` for a person at a terminal (stdout is a TTY and NODE_ENV is
 * not `production`), `json` for everything else (a container, a service manager, a pipe).
 */
export function chooseLogFormat(
  set: LogFormat | undefined,
  where: { tty: boolean; production: boolean },
): LogFormat {
  return set ?? (where.tty && !where.production ? 'pretty' : 'json');
}

/** A configuration whose APP_SECRET is resolved: what the app boots with. */
export type BootConfig = AppConfig & { appSecret: string };

/**
 * The boot step (main.ts): loads the configuration and resolves APP_SECRET once, from the
 * variable or the data folder's `app-secret` file (generated on first start).
 */
export function bootConfig(env: Env = process.env): BootConfig {
  const config = loadConfig(env);
  return { ...config, appSecret: resolveAppSecret(config) };
}

/** The APP_SECRET resolved at boot; a configuration that went through neither fails loudly. */
export function appSecretOf(config: AppConfig): string {
  if (!config.appSecret) {
    throw new Error('APP_SECRET is not resolved: boot with bootConfig() or set APP_SECRET');
  }
  return config.appSecret;
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

/**
 * The process environment, for the command-line tool: it reads its configuration through loadConfig like
 * the server, and besides that only DEBUG and npm's INIT_CWD (the folder a command was typed in).
 */
export function processEnvironment(): Env {
  return process.env;
}
