import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { ConfigError, loadConfig, resolveAppSecret } from './config/config';

async function bootstrap(): Promise<void> {
  let config;
  try {
    config = loadConfig();
    config.appSecret = resolveAppSecret(config);
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  }
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config), {
    bodyParser: false,
    bufferLogs: false,
  });
  configureApp(app, config);
  await app.listen(config.port);
  new Logger('Bootstrap').log(`URL-Shorter listening on ${config.baseUrl} (${config.db.type})`);
}

bootstrap().catch((err: unknown) => {
  console.error('Failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
