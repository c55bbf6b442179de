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
  addPipelineProblems(doc);
  repeatableQueryParameters(doc);
  return sortKeys(doc);
}

const OPERATIONS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);
const STATE_CHANGING = new Set(['put', 'post', 'delete', 'patch']);

/**
 * Answers the request pipeline gives before any handler runs (account/auth-pipeline.ts), so they
 * belong to every operation under /api and /management: 400 for an API key in the query string,
 * 401 for an unknown API key, and 403 for a cross-site state change. Every operation that takes a
 * body also answers 413 (a body over its limit) and 415 (a body that is not JSON) from the body
 * reader (app.setup.ts), on every path. Log lines carry structured fields of their own (route,
 * status, …), so their schema is open.
 */
function addPipelineProblems(doc: OpenAPIObject): void {
  const problem = {
    content: {
      'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
    },
  };
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item as Record<string, unknown>)) {
      if (!OPERATIONS.has(method) || !op || typeof op !== 'object') continue;
      const responses = ((op as { responses?: Record<string, unknown> }).responses ??= {});
      if ((op as { requestBody?: unknown }).requestBody) {
        responses['413'] ??= { description: 'Payload Too Large', ...problem };
        responses['415'] ??= { description: 'Unsupported Media Type', ...problem };
      }
      if (!/^\/(api|management)(\/|$)/.test(path)) continue;
      responses['400'] ??= { description: 'Bad Request', ...problem };
      responses['401'] ??= { description: 'Unauthorized', ...problem };
      if (STATE_CHANGING.has(method)) responses['403'] ??= { description: 'Forbidden', ...problem };
    }
  }
  const logEntry = doc.components?.schemas?.LogEntryDto as { additionalProperties?: boolean };
  if (logEntry) logEntry.additionalProperties = true;
}

/**
 * A list in the query (a query DTO's array property, e.g. `sort`) is the parameter repeated:
 * `?sort=a&sort=b`. That is OpenAPI's default for the query; said explicitly, as `@ApiProperty`
 * cannot.
 */
function repeatableQueryParameters(doc: OpenAPIObject): void {
  for (const item of Object.values(doc.paths)) {
    for (const [method, op] of Object.entries(item as Record<string, unknown>)) {
      if (!OPERATIONS.has(method) || !op || typeof op !== 'object') continue;
      for (const p of (op as { parameters?: Array<Record<string, unknown>> }).parameters ?? []) {
        const schema = p.schema as { type?: string } | undefined;
        if (p.in === 'query' && schema?.type === 'array') {
          p.style ??= 'form';
          p.explode ??= true;
        }
      }
    }
  }
}

export function setupSwagger(app: INestApplication): OpenAPIObject {
  const doc = buildOpenApiDocument(app);
  SwaggerModule.setup('api/docs', app, doc, { jsonDocumentUrl: 'api/docs-json' });
  return doc;
}
