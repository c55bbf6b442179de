import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type INestApplicationContext, Logger, type LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource, MigrationExecutor } from 'typeorm';
import {
  type AppConfig,
  type BootConfig,
  ConfigError,
  loadConfig,
  processEnvironment,
  resolveAppSecret,
} from '../config/config';
import { dataSourceOptions } from '../database/data-source';
import { Redactor } from '../logging/redact';
import { CliModule } from './cli.module';
import { type CliIo, CliError, debugOf } from './io';
import { CliLogger } from './logger';

/** How the configured database is named in the CLI's output: never with its password. */
export function databaseLabel(config: AppConfig): string {
  const server = config.db.type === 'mysql' ? config.db.mysql : config.db.postgres;
  if (config.db.type === 'sqlite' || !server) return `sqlite ${config.db.file}`;
  return `${config.db.type} ${server.username}@${server.host}:${server.port}/${server.database}`;
}

/** The configuration error as one line (ConfigError lists one problem a line). */
function configFailure(err: unknown): never {
  if (err instanceof ConfigError) {
    throw new CliError(`Invalid configuration: ${err.problems.join('; ')}`);
  }
  throw err;
}

/**
 * One run of the CLI: its output, its configuration (the server's: the same variables, read by
 * the same loader) and, for the commands that need them, the database and the server's modules.
 */
export class CliRuntime {
  readonly env: NodeJS.ProcessEnv;
  readonly debug: boolean;
  /** Set by the global --json option before a command runs. */
  json = false;
  /** The exit code of a command that reports its own failure (1), beside a thrown one. */
  exitCode = 0;
  private readonly redactor = new Redactor();
  private loaded?: AppConfig;

  constructor(readonly io: CliIo) {
    this.env = io.env ?? processEnvironment();
    this.debug = debugOf(this.env);
  }

  /** The validated configuration (no file written); a bad value is a CliError. */
  config(): AppConfig {
    if (!this.loaded) {
      try {
        this.loaded = loadConfig(this.env);
      } catch (err) {
        configFailure(err);
      }
      this.redactor.addSecrets([...this.loaded.secretValues]);
    }
    return this.loaded;
  }

  /**
   * A file named on the command line, made absolute: relative to the folder the command was typed in
   * (`npm run` starts scripts in the package folder and names that folder INIT_CWD).
   */
  path(file: string): string {
    return resolve(this.env.INIT_CWD ?? process.cwd(), file);
  }

  /** Masks every configured secret in a line for stderr. */
  scrub(text: string): string {
    return this.redactor.scrub(text);
  }

  /** The command's result: JSON with --json, else the text lines. */
  print(data: unknown, text: string | string[]): void {
    if (this.json) this.io.stdout(JSON.stringify(data, null, 2) + '\n');
    else {
      const lines = Array.isArray(text) ? text : [text];
      if (lines.length) this.io.stdout(lines.join('\n') + '\n');
    }
  }

  /** A line on stderr that is no failure (a note the operator should read). */
  note(line: string): void {
    this.io.stderr(this.scrub(`note: ${line}`) + '\n');
  }

  /** A command's own failure: its one line on stderr, exit code 1 (output may precede it). */
  fail(line: string): void {
    this.io.stderr(this.scrub(`error: ${line}`) + '\n');
    this.exitCode = 1;
  }

  /**
   * The database as the server opens it (the same options and migrations), without running
   * migrations: for `migrate` and the check before every other command. Closed after `use`.
   */
  async withMigrationSource<T>(use: (ds: DataSource) => Promise<T>): Promise<T> {
    const ds = new DataSource({ ...dataSourceOptions(this.config()), migrationsRun: false });
    await ds.initialize();
    try {
      return await use(ds);
    } finally {
      await ds.destroy();
    }
  }

  /**
   * Runs `use` with the server's modules (CliModule) on the configured database: an application
   * context, no HTTP listener, closed (connections ended) afterwards. The database must exist and
   * be migrated: the CLI does not migrate as a side effect (`migrate` does).
   */
  async withApp<T>(use: (app: INestApplicationContext) => Promise<T>): Promise<T> {
    const config = this.config();
    if (config.db.type === 'sqlite' && !existsSync(config.db.file)) {
      throw new CliError(
        `no database at ${config.db.file} (DB_FILE): run the CLI with the server's configuration and working directory, or \`migrate\` to create it`,
      );
    }
    const pending = await this.withMigrationSource((ds) =>
      new MigrationExecutor(ds).getPendingMigrations(),
    );
    if (pending.length) {
      throw new CliError(
        `the database has ${pending.length} pending migration(s): run \`url-shorter migrate\` (or start the server) first`,
      );
    }
    // APP_SECRET as the server resolves it (the API-key service needs it); no log line to stdout.
    const boot: BootConfig = { ...config, appSecret: resolveAppSecret(config), logStdout: false };
    this.redactor.addSecrets([boot.appSecret]);
    // Nest's logger is process-wide (Logger's static instance): the CLI's while it runs, the
    // previous one again afterwards (the e2e tests run the CLI beside a test app in one process).
    const saved = (Logger as unknown as { staticInstanceRef?: LoggerService }).staticInstanceRef;
    const logger = new CliLogger((s) => this.io.stderr(s), this.redactor, this.debug);
    let app: INestApplicationContext | undefined;
    try {
      app = await NestFactory.createApplicationContext(CliModule.register(boot), {
        logger,
        abortOnError: false,
      });
      return await use(app);
    } finally {
      await app?.close();
      (Logger as unknown as { staticInstanceRef?: LoggerService }).staticInstanceRef = saved;
    }
  }
}
