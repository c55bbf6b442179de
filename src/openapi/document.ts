import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { APP_VERSION } from '../config/version';

/** Recursively sorts object keys so the committed spec is byte-stable. */
export function sortKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sortKeys) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    ) as T;
  }
  return value;
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('URL-Shorter API')
    .setDescription('Self-hosted URL shortener. Errors are application/problem+json (RFC 9457).')
    .setVersion(APP_VERSION)
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    .addServer('/', 'This server')
    .addCookieAuth(
      'url_shorter_session',
      { type: 'apiKey', in: 'cookie', name: 'url_shorter_session', description: 'Session cookie set by a login' },
      'session',
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'opaque API key', description: 'API key (us_…) from PUT /api/self/apikey; never in the query' },
      'apiKey',
    )
    // Every route accepts the session cookie or the API key; routes that need a login say so (401).
    .addSecurityRequirements('session')
    .addSecurityRequirements('apiKey')
    .build();
  config.security = [...(config.security ?? []), {}];
  const doc = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controllerKey: string, methodKey: string) => methodKey,
  });
  return sortKeys(doc);
}

export function setupSwagger(app: INestApplication): void {
  const doc = buildOpenApiDocument(app);
  SwaggerModule.setup('api/docs', app, doc, { jsonDocumentUrl: 'api/docs-json' });
}
