import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AppModule } from './app.module';
import { loadConfig } from './config/config';
import { buildOpenApiDocument } from './openapi/document';

/** Writes openapi/openapi.json from the built server (a throwaway SQLite database). */
async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'url-shorter-openapi-'));
  try {
    const config = loadConfig({
      DB_FILE: join(dir, 'openapi.db'),
      APP_SECRET: 'x'.repeat(32),
      LOG_LEVEL: 'error',
    });
    const app = await NestFactory.create(AppModule.register(config), {
      logger: ['error'],
      bodyParser: false,
    });
    await app.init();
    const doc = buildOpenApiDocument(app);
    const out = resolve(process.argv[2] ?? 'openapi/openapi.json');
    writeFileSync(out, JSON.stringify(doc, null, 2) + '\n');
    await app.close();
    console.log(`OpenAPI written to ${out}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
