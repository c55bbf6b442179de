import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Checks real responses against the committed OpenAPI document (openapi/openapi.json).
 *
 * OpenAPI 3.0 schemas are converted to JSON Schema for ajv: `nullable: true` becomes
 * `anyOf: [schema, {type: 'null'}]` (this also covers `allOf: [$ref]` + nullable, which a plain
 * type union cannot express), and object schemas with `properties` reject undocumented fields
 * unless they declare `additionalProperties` themselves, so a field missing from the spec fails too.
 */

type Json = Record<string, unknown>;
type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options';

const SPEC_FILE = join(__dirname, '..', '..', 'openapi', 'openapi.json');
const DOC_ID = 'openapi.json';

interface OpenApiDoc {
  paths: Record<
    string,
    Partial<Record<HttpMethod, { responses?: Record<string, ResponseObject> }>>
  >;
  components?: { schemas?: Record<string, unknown> };
}
interface ResponseObject {
  description?: string;
  content?: Record<string, { schema?: unknown }>;
}

/** Keywords of OpenAPI 3.0 that JSON Schema (ajv) does not know; dropped before compiling. */
const OPENAPI_ONLY = new Set([
  'example',
  'examples',
  'xml',
  'externalDocs',
  'discriminator',
  'deprecated',
]);

/** The document's component schemas (raw), for flattening `allOf`. */
let rawComponents: Json = {};

/**
 * `allOf` of object schemas (Nest's paged responses: PageMeta + content; nullable nested DTOs)
 * merged into one object schema, so "no undocumented field" can hold for the whole object (with
 * `additionalProperties: false` on each member, each would refuse the other's fields).
 */
function flattenAllOf(src: Json): Json | null {
  const properties: Json = {};
  const required: string[] = [];
  let additional: unknown;
  for (const member of src.allOf as unknown[]) {
    let m = member as Json;
    if (typeof m?.$ref === 'string') {
      m = rawComponents[m.$ref.replace('#/components/schemas/', '')] as Json;
    }
    if (!m || m.allOf || (m.type !== 'object' && m.properties === undefined)) return null;
    Object.assign(properties, m.properties ?? {});
    required.push(...((m.required as string[] | undefined) ?? []));
    if (m.additionalProperties !== undefined) additional = m.additionalProperties;
  }
  const rest = Object.fromEntries(Object.entries(src).filter(([k]) => k !== 'allOf'));
  return {
    ...rest,
    type: 'object',
    properties,
    ...(required.length ? { required: [...new Set(required)] } : {}),
    ...(additional !== undefined ? { additionalProperties: additional } : {}),
  };
}

function convert(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(convert);
  if (!schema || typeof schema !== 'object') return schema;
  if (Array.isArray((schema as Json).allOf)) {
    const flat = flattenAllOf(schema as Json);
    if (flat) return convert(flat);
  }
  const src = schema as Json;
  const out: Json = {};
  for (const [key, value] of Object.entries(src)) {
    if (OPENAPI_ONLY.has(key) || key === 'nullable') continue;
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/')) {
      out.$ref = `${DOC_ID}${value}`;
    } else if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(value as Json).map(([k, v]) => [k, convert(v)]),
      );
    } else {
      out[key] = convert(value);
    }
  }
  const isObject =
    out.type === 'object' || (out.type === undefined && out.properties !== undefined);
  if (isObject && out.properties !== undefined && out.additionalProperties === undefined) {
    out.additionalProperties = false;
  }
  if (src.nullable === true) {
    // `type: 'object'` next to `allOf` (Nest emits it for nullable nested DTOs) stays in the non-null branch.
    return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

let cache: { doc: OpenApiDoc; ajv: Ajv; validators: Map<string, ValidateFunction> } | undefined;

function load() {
  if (cache) return cache;
  const doc = JSON.parse(readFileSync(SPEC_FILE, 'utf8')) as OpenApiDoc;
  rawComponents = (doc.components?.schemas ?? {}) as Json;
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addSchema({ components: { schemas: convert(doc.components?.schemas ?? {}) } }, DOC_ID);
  cache = { doc, ajv, validators: new Map() };
  return cache;
}

/** The OpenAPI document as committed (for tests that look at operations directly). */
export function openApiDocument(): OpenApiDoc {
  return load().doc;
}

function mediaType(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

function describeErrors(errors: ErrorObject[] | null | undefined, body: unknown): string {
  const lines = (errors ?? [])
    // anyOf's own "must match a schema in anyOf" repeats what its branches said.
    .filter((e) => e.keyword !== 'anyOf')
    .map((e) => {
      const at = e.instancePath || '(body)';
      const extra =
        e.keyword === 'additionalProperties'
          ? ` "${(e.params as { additionalProperty: string }).additionalProperty}" (undocumented field)`
          : e.keyword === 'enum'
            ? ` ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`
            : '';
      return `  - ${at} ${e.message ?? e.keyword}${extra}`;
    });
  const shown = JSON.stringify(body);
  return `${[...new Set(lines)].join('\n')}\n  body: ${shown && shown.length > 600 ? shown.slice(0, 600) + '…' : shown}`;
}

function findResponse(
  responses: Record<string, ResponseObject>,
  status: number,
): ResponseObject | undefined {
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
}

/**
 * Fails (throws an Error with a readable message) when a real response does not match the documented one:
 * the status must be documented for the operation, the content type must be one the spec lists for it,
 * and the body must match that content type's schema. Responses documented without content (302, 204)
 * must have an empty body. `pathTemplate` is the spec's path, e.g. `/api/code/{code}`.
 */
export function expectMatchesSpec(
  method: string,
  pathTemplate: string,
  status: number,
  body: unknown,
  contentType?: string | null,
): void {
  const { doc, ajv, validators } = load();
  const label = `${method.toUpperCase()} ${pathTemplate} -> ${status}`;
  const pathItem = doc.paths[pathTemplate];
  if (!pathItem) {
    throw new Error(
      `OpenAPI: path ${pathTemplate} is not documented (documented: ${Object.keys(doc.paths).join(', ')})`,
    );
  }
  const op = pathItem[method.toLowerCase() as HttpMethod];
  if (!op) throw new Error(`OpenAPI: ${method.toUpperCase()} ${pathTemplate} is not documented`);
  const responses = op.responses ?? {};
  const response = findResponse(responses, status);
  if (!response) {
    throw new Error(
      `OpenAPI: ${label} is not a documented status (documented: ${Object.keys(responses).join(', ')})`,
    );
  }

  const content = response.content ?? {};
  const documentedTypes = Object.keys(content);
  if (documentedTypes.length === 0) {
    const empty = body === undefined || body === null || body === '';
    if (!empty)
      throw new Error(
        `OpenAPI: ${label} is documented without a body, but one was sent: ${JSON.stringify(body)}`,
      );
    return;
  }
  const type = mediaType(contentType);
  const media = content[type];
  if (!media) {
    throw new Error(
      `OpenAPI: ${label} answered content type "${type || '(none)'}", documented: ${documentedTypes.join(', ')}`,
    );
  }
  if (media.schema === undefined) return;

  const key = `${method.toLowerCase()} ${pathTemplate} ${status} ${type}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(convert(media.schema) as object);
    validators.set(key, validate);
  }
  if (!validate(body)) {
    throw new Error(
      `OpenAPI: ${label} (${type}) does not match the documented schema:\n${describeErrors(validate.errors, body)}`,
    );
  }
}

/**
 * Reads a fetch Response, checks it with expectMatchesSpec and returns the parsed body
 * (JSON for JSON content types, text otherwise, undefined when empty).
 */
export async function checkResponse(
  method: string,
  pathTemplate: string,
  res: Response,
): Promise<unknown> {
  const text = await res.text();
  const contentType = res.headers.get('content-type');
  let body: unknown = text === '' ? undefined : text;
  if (text !== '' && /[/+]json\b/.test(mediaType(contentType))) {
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(
        `OpenAPI: ${method.toUpperCase()} ${pathTemplate} -> ${res.status} sent invalid JSON: ${text.slice(0, 200)}`,
      );
    }
  }
  expectMatchesSpec(method, pathTemplate, res.status, body, contentType);
  return body;
}

let templates: Array<{ template: string; re: RegExp; params: number }> | undefined;

/**
 * The documented path templates, each with a matcher for concrete paths; literal paths first (as
 * the router ranks them), then by the number of parameters.
 */
export function pathTemplates(): Array<{ template: string; re: RegExp; params: number }> {
  templates ??= Object.keys(load().doc.paths)
    .map((template) => {
      const parts = template.split(/\{[^}]+\}/);
      const re = new RegExp(
        `^${parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+')}/?$`,
      );
      return { template, re, params: parts.length - 1 };
    })
    .sort((a, b) => a.params - b.params);
  return templates;
}

/**
 * The documented path template a concrete path belongs to (`/api/code/abc` → `/api/code/{id}`), or
 * null when no documented path matches. Literal paths win over templates with parameters.
 */
export function specPathFor(path: string): string | null {
  return pathTemplates().find((t) => t.re.test(path))?.template ?? null;
}

/**
 * Checks a response an e2e test received, if it is JSON from a documented operation: the test
 * app's fetch calls this for every response, so every operation the suite exercises is held to
 * the spec, not only the ones a test checks by hand. Undocumented paths and methods (unknown
 * routes answering 404) are left to the test.
 */
export async function checkJsonAgainstSpec(
  method: string,
  path: string,
  res: Response,
): Promise<void> {
  if (!/[/+]json\b/.test(mediaType(res.headers.get('content-type')))) return;
  const template = specPathFor(path);
  if (!template) return;
  if (!load().doc.paths[template][method.toLowerCase() as HttpMethod]) return;
  await checkResponse(method, template, res.clone());
}
