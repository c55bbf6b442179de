import './heap-setup';
import 'reflect-metadata';
import type { Server } from 'node:http';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { backlogWarning, composeHttpServer, listenApp } from './app.server';
import { configureApp } from './app.setup';
import { exitOnStopSignals } from './common/stop-signals';
import { bootConfig, ConfigError } from './config/config';
import { LogService } from './logging/log.service';

import { startupSummary } from './logging/startup-summary';
import { SentryService } from './sentry/sentry.service';

/** Crashes are logged and reported (Sentry, when configured) before the process ends. */
function installCrashHandlers(log: LogService, sentry: SentryService): void {
  process.on('uncaughtException', (err: Error) => {
    log.write('fatal', 'process', `Uncaught exception: ${err.stack ?? err.message}`);
    sentry.capture(err, { status: 500 });
    void sentry.flush(2000).finally(() => process.exit(1));
  });
  process.on('unhandledRejection', (reason: unknown) => {
    log.write(
      'error',
      'process',
      `Unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`,
    );
    sentry.capture(reason, { status: 500 });
  });
}

async function bootstrap(): Promise<void> {
  let config;
  try {
    // Validated configuration, APP_SECRET resolved once (generated into the data folder at first).
    config = bootConfig();
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  }
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config), {
    bodyParser: false,
    // Boot lines wait for the structured logger that configureApp installs.
    bufferLogs: true,
  });
  configureApp(app, config);
  composeHttpServer(app);
  for (const warning of config.warnings) new Logger('Config').warn(warning);
  const backlog = backlogWarning();
  if (backlog) new Logger('Bootstrap').warn(backlog);
  installCrashHandlers(app.get(LogService), app.get(SentryService));
  exitOnStopSignals(app, app.get(LogService));

  // What an operator needs at start, in a few lines (module wiring and routes are at debug).
  const summary = startupSummary(config);
  for (const line of summary.beforeListen) new Logger('Bootstrap').log(line);
  await listenApp(app, config.port);
  const address = (app.getHttpServer() as Server).address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  new Logger('Bootstrap').log(summary.listening(port));
}

bootstrap().catch((err: unknown) => {
  console.error('Failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
