import { openApiDocument } from './openapi';

/**
 * The operations of openapi/openapi.json as the API fuzz needs them: every path and method the
 * committed document lists (nothing hard-coded, so new routes are fuzzed as soon as they are
 * documented), with their parameters and request body schema, `$ref`s resolved.
 */

export type Schema = Record<string, unknown>;

export interface FuzzParam {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

export interface FuzzOperation {
  /** `POST /api/code` */
  key: string;
  method: string;
  /** The documented template, e.g. `/api/code/{id}`. */
  path: string;
  params: FuzzParam[];
  /** The JSON body schema, or null when the operation takes no body. */
  body: Schema | null;
  bodyRequired: boolean;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface RawOperation {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Schema }>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
}

/** Resolves `#/components/schemas/X` references (recursively, cycles cut at depth 8). */
export function resolveSchema(schema: unknown, depth = 0): Schema {
  if (!schema || typeof schema !== 'object' || depth > 8) return {};
  const s = schema as Schema;
  if (typeof s.$ref === 'string') {
    const name = s.$ref.replace('#/components/schemas/', '');
    const target = (openApiDocument().components?.schemas ?? {})[name];
    return resolveSchema(target, depth + 1);
  }
  const out: Schema = { ...s };
  if (s.properties && typeof s.properties === 'object') {
    out.properties = Object.fromEntries(
      Object.entries(s.properties as Record<string, unknown>).map(([k, v]) => [
        k,
        resolveSchema(v, depth + 1),
      ]),
    );
  }
  if (s.items) out.items = resolveSchema(s.items, depth + 1);
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    if (Array.isArray(s[key])) {
      out[key] = (s[key] as unknown[]).map((m) => resolveSchema(m, depth + 1));
    }
  }
  return out;
}

/** Every documented operation, in document order. */
export function fuzzOperations(): FuzzOperation[] {
  const doc = openApiDocument();
  const ops: FuzzOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = (item as Record<string, RawOperation | undefined>)[method];
      if (!op) continue;
      const params: FuzzParam[] = (op.parameters ?? [])
        .filter((p) => p.in === 'path' || p.in === 'query' || p.in === 'header')
        .map((p) => ({
          name: p.name,
          in: p.in as FuzzParam['in'],
          required: p.required === true,
          schema: resolveSchema(p.schema ?? {}),
        }));
      // Path parameters the template names but the document does not describe.
      for (const m of path.matchAll(/\{([^}]+)\}/g)) {
        if (!params.some((p) => p.in === 'path' && p.name === m[1])) {
          params.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
        }
      }
      const content = op.requestBody?.content ?? {};
      const json = content['application/json'] ?? Object.values(content)[0];
      ops.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        params,
        body: op.requestBody ? resolveSchema(json?.schema ?? {}) : null,
        bodyRequired: op.requestBody?.required === true,
      });
    }
  }
  return ops;
}

/** Every property name the document mentions (a pool of plausible keys for free-form bodies). */
export function documentedPropertyNames(): string[] {
  const names = new Set<string>();
  const walk = (s: unknown) => {
    if (!s || typeof s !== 'object') return;
    if (Array.isArray(s)) return s.forEach(walk);
    const o = s as Schema;
    if (o.properties && typeof o.properties === 'object') {
      for (const [k, v] of Object.entries(o.properties as Record<string, unknown>)) {
        names.add(k);
        walk(v);
      }
    }
    for (const v of Object.values(o)) if (v && typeof v === 'object') walk(v);
  };
  walk(openApiDocument().components?.schemas ?? {});
  return [...names].sort();
}
