import { type AppConfig, APP_VERSION, type DatabaseConfig } from '../config/config';

/**
 * What the start says at `info` (CONTRACT "Operations", Logs): a few lines an operator reads,
 * never a password or a user name of a connection. main.ts logs `beforeListen` lines, listens,
 * then the `listening` line; with the configuration's warnings they stay within 12 lines.
 */
export interface StartupSummary {
  beforeListen: string[];
  /** The line once the server listens, with the port it got (PORT=0 asks the system for one). */
  listening: (port: number) => string;
}

export function startupSummary(config: AppConfig): StartupSummary {
  return {
    beforeListen: [
      `URL-Shorter ${APP_VERSION} (Node.js ${process.versions.node}, NODE_ENV=${config.nodeEnv})`,
      `Database: ${describeDatabase(config.db)}`,
      `Redis: ${describeRedis(config.redisUrl)}`,
      `Login: ${describeLogins(config)}`,
      `Off: ${offFeatures(config).join(', ') || 'nothing'}`,
    ],
    listening: (port) => `URL-Shorter listening on ${config.baseUrl} (port ${port})`,
  };
}

/** Engine and where: the SQLite file, or host:port/database of a server (no user, no password). */
export function describeDatabase(db: DatabaseConfig): string {
  if (db.type === 'sqlite') return `SQLite ${db.file}`;
  const server = db.type === 'postgres' ? db.postgres : db.mysql;
  const engine = db.type === 'postgres' ? 'PostgreSQL' : 'MariaDB/MySQL';
  if (!server) return engine;
  const host = server.host.includes(':') ? `[${server.host}]` : server.host;
  return `${engine} ${host}:${server.port}/${server.database}`;
}

/** host:port (and the database index) of REDIS_URL, without its user name or password; or off. */
export function describeRedis(url: string | undefined): string {
  if (!url) return 'off (cache, sessions and rate limits in this process only)';
  try {
    const u = new URL(url);
    const port = u.port || '6379';
    const index = u.pathname.replace(/^\/+/, '');
    const tls = u.protocol === 'rediss:' ? ' (TLS)' : '';
    return `${u.hostname}:${port}${index ? ` database ${index}` : ''}${tls}`;
  } catch {
    return 'set';
  }
}

/** The login providers configured, the development login included; or none. */
export function describeLogins(config: AppConfig): string {
  const names: string[] = [];
  if (config.auth.github) names.push('GitHub');
  if (config.auth.discord) names.push('Discord');
  if (config.auth.oidc) names.push(`OIDC (${config.auth.oidc.name})`);
  if (config.auth.devLogin) names.push('development login');
  return names.length ? names.join(', ') : 'none (nobody can log in; anonymous shorts only)';
}

/** What the configuration leaves off, by the names an operator knows. */
export function offFeatures(config: AppConfig): string[] {
  const off: string[] = [];
  if (!config.sentryDsn && !config.sentryDsnWeb) off.push('Sentry');
  else if (!config.sentryDsn) off.push('Sentry (server)');
  else if (!config.sentryDsnWeb) off.push('Sentry (web client)');
  if (!config.unleashUrl) off.push('Unleash (flags from FLAGS)');
  if (!config.stats.enabled) off.push('statistics');
  if (!config.health.job) off.push('link-health job');
  if (config.limits.domains === 0) off.push('own domains');
  if (config.limits.teams === 0) off.push('teams');
  if (!config.metricsToken) off.push('metrics scrape token');
  const limits: Array<[keyof AppConfig['limits'], string]> = [
    ['anonCreate', 'anonymous creates'],
    ['userCreate', 'user creates'],
    ['qrRender', 'QR renders'],
    ['healthCheck', 'health checks'],
    ['domainVerify', 'domain verifications'],
    ['teamCreate', 'team creates'],
    ['bulk', 'bulk edits'],
  ];
  const unlimited = limits
    .filter(([key]) => (config.limits[key] as unknown[]).length === 0)
    .map(([, name]) => name);
  if (unlimited.length) off.push(`rate limits of ${unlimited.join(', ')}`);
  return off;
}
