import type { INestApplication, LoggerService } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { Server } from 'node:http';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { composeHttpServer, listenApp } from '../../src/app.server';
import { configureApp } from '../../src/app.setup';
import { loadConfig, type AppConfig } from '../../src/config/config';
import { dialectSql, engineOf } from '../../src/database/dialect';
import { createTestDatabase, TEST_REDIS_URL, type TestDatabase } from './database';
import { useBeforeAll } from './hooks';
import { NO_LIMITS } from './limits';
import { checkJsonAgainstSpec } from './openapi';
import { asBrowser } from './user-agent';

export interface TestApp {
  app: INestApplication;
  config: AppConfig;
  ds: DataSource;
  /** http://127.0.0.1:{port} of the listening app. */
  url: string;
  /** fetch against the app; redirects are never followed. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** Raw SQL with `?` parameters, in the form the test database's engine wants. */
  query<T = Record<string, unknown>[]>(sql: string, params?: unknown[]): Promise<T>;
  /** POST a JSON body. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  logger?: LoggerService;
  /** Providers replaced in the testing module (e.g. an injected address policy). */
  overrides?: Array<{ provide: unknown; useValue: unknown }>;
}

/** Boots the real AppModule on a fresh database (SQLite, or MariaDB with TEST_DB_URL). */
export async function createTestApp(
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  // A caller that passes DB_FILE/DB_URL shares that database (e.g. two instances); else a fresh one.
  const shared = env.DB_FILE !== undefined || env.DB_URL !== undefined;
  const db = shared ? { env: {}, drop: async () => undefined } : await createTestDatabase();
  const config = loadConfig({
    APP_SECRET: 'test-secret-'.padEnd(40, 'x'),
    LOG_LEVEL: 'error',
    // The link-health job would check every test short's target a minute after boot; its tests
    // run sweeps by hand (LinkHealthJob.run).
    HEALTH_CHECK: 'false',
    ...NO_LIMITS,
    ...db.env,
    ...env,
  });
  const builder = Test.createTestingModule({ imports: [AppModule.register(config)] });
  for (const o of options.overrides ?? []) {
    builder.overrideProvider(o.provide as string).useValue(o.useValue);
  }
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication({
    bodyParser: false,
    logger: options.logger ?? ['error', 'fatal'],
  });
  configureApp(app, config);
  composeHttpServer(app);
  // The listen backlog of production (main.ts), so floods meet the same queue.
  await listenApp(app, 0, '127.0.0.1');
  // The test's fetch (undici) keeps sockets for 4 s; a server that closes idle sockets after its
  // default 5 s races with a reuse on a loaded machine (ECONNRESET). The client closes first here.
  const server = app.getHttpServer() as Server;
  server.keepAliveTimeout = 30_000;
  const address = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  // Every JSON answer of a documented operation is checked against openapi/openapi.json.
  const doFetch = async (path: string, init: RequestInit = {}) => {
    // As a browser (a user agent isbot does not know), unless the test sends its own.
    const res = await fetch(url + path, { redirect: 'manual', ...asBrowser(init) });
    await checkJsonAgainstSpec(init.method ?? 'GET', new URL(url + path).pathname, res);
    return res;
  };
  return {
    app,
    config,
    ds: app.get(DataSource),
    query: (sql, params) => {
      const ds = app.get(DataSource);
      return ds.query(dialectSql(engineOf(ds), sql), params);
    },
    url,
    fetch: doFetch,
    post: (path, body, headers = {}) =>
      doFetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}

/**
 * The test app of a describe block: booted in `beforeAll`, closed in `afterAll`.
 *
 *   describe('…', () => {
 *     const t = useTestApp({ AUTH_DEV_LOGIN: 'true' });
 *     const alice = useLogin(t, 'alice');
 *     it('…', async () => expect((await t.fetch('/api/account', { headers: alice.headers })).status).toBe(200));
 *   });
 *
 * `env` may be a function, read in `beforeAll`, for values an earlier hook makes (a fake server's
 * address, a shared database's env).
 */
export function useTestApp(
  env: Record<string, string> | (() => Record<string, string>) = {},
  options: TestAppOptions = {},
): TestApp {
  return useBeforeAll(
    'the test app',
    () => createTestApp(typeof env === 'function' ? env() : env, options),
    (t) => t.close(),
  );
}

/**
 * Two instances of the app on one database and one Redis (the cache bus between them), with the
 * dev login, for what one instance's change must do on the other:
 *
 *   const { a, b } = useTwoInstances({ BASE_URL: 'http://short.example' });
 *
 * `extra` is added to both apps' env.
 */
export function useTwoInstances(extra: Record<string, string> = {}): {
  db: TestDatabase;
  a: TestApp;
  b: TestApp;
} {
  const db = useTestDatabase();
  const env = () => ({ ...db.env, REDIS_URL: TEST_REDIS_URL, AUTH_DEV_LOGIN: 'true', ...extra });
  return { db, a: useTestApp(env), b: useTestApp(env) };
}

/**
 * A database several apps of a describe block share (pass `db.env` to each): created in
 * `beforeAll`, dropped in `afterAll` after the apps that were started later are closed.
 */
export function useTestDatabase(): TestDatabase {
  return useBeforeAll('the shared test database', createTestDatabase, (db) => db.drop());
}
