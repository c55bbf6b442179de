import type { OpenAPIObject } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { ValidationFailedError } from '../common/errors';

/**
 * A JSON null where the documented schema allows none is a 400 with fieldErrors, on every
 * operation (CONTRACT "Errors": every body the OpenAPI schema refuses is a 400 with fieldErrors).
 * The DTO checks of most fields refuse null already; some optional fields took null as "absent"
 * (issue 37: `{"csv": null}` reached the import's CSV parser and answered 500). This check reads
 * the one source both share, the built OpenAPI document, so no operation can differ from it.
 *
 * It looks at the declared top-level fields of a body (free-form maps, `additionalProperties`, are
 * not checked): at most as many as the body has keys.
 */

type Schema = Record<string, unknown>;
const BODY_METHODS = ['post', 'put', 'patch', 'delete'] as const;

interface BodyOperation {
  method: string;
  re: RegExp;
  params: number;
  schema: Schema;
}

export class BodyNullCheck {
  private operations: BodyOperation[] = [];
  private schemas: Record<string, Schema> = {};

  /** Takes the operations with a JSON body from the built document. */
  load(doc: OpenAPIObject): void {
    this.schemas = (doc.components?.schemas ?? {}) as Record<string, Schema>;
    const ops: BodyOperation[] = [];
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const method of BODY_METHODS) {
        const op = (item as Record<string, { requestBody?: unknown } | undefined>)[method];
        const body = op?.requestBody as
          | { content?: Record<string, { schema?: Schema }> }
          | undefined;
        const schema = body?.content?.['application/json']?.schema;
        if (!schema) continue;
        const params = (template.match(/\{[^}]+\}/g) ?? []).length;
        const source = template
          .split(/\{[^}]+\}/)
          .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
          .join('[^/]+');
        ops.push({ method: method.toUpperCase(), re: new RegExp(`^${source}/*$`), params, schema });
      }
    }
    // A literal path wins over a template with parameters (as the router does).
    this.operations = ops.sort((a, b) => a.params - b.params);
  }

  /** The body schema of the documented operation that answers `method path`, if any. */
  schemaFor(method: string, path: string): Schema | null {
    return this.operations.find((o) => o.method === method && o.re.test(path))?.schema ?? null;
  }

  /**
   * fieldErrors for each top-level field whose null the schema does not allow (empty when there is
   * none). Nested values are left to the DTO checks, which refuse a nested null already and name
   * it as they name other errors there (`fieldErrors.rules` with its errorKey).
   */
  check(schema: Schema, body: unknown): Record<string, string> {
    const errors: Record<string, string> = {};
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return errors;
    const props = this.properties(this.resolve(schema));
    for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
      if (value !== null || !Object.prototype.hasOwnProperty.call(props, key)) continue;
      if (!this.allowsNull(props[key])) errors[key] = `${key} must not be null`;
    }
    return errors;
  }

  middleware(): (req: Request, res: Response, next: NextFunction) => void {
    return (req, _res, next) => {
      const body = req.body as unknown;
      if (body === null || typeof body !== 'object') return next();
      const schema = this.schemaFor(req.method, req.path);
      if (!schema) return next();
      const errors = this.check(schema, body);
      if (Object.keys(errors).length > 0) return next(new ValidationFailedError(errors));
      next();
    };
  }

  private resolve(schema: Schema, depth = 0): Schema {
    const ref = schema.$ref;
    if (typeof ref !== 'string' || depth > 8) return schema;
    const target = this.schemas[ref.replace('#/components/schemas/', '')];
    return target ? this.resolve(target, depth + 1) : {};
  }

  private allowsNull(raw: Schema): boolean {
    const s = this.resolve(raw);
    if (raw.nullable === true || s.nullable === true) return true;
    if (s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null'))) return true;
    if (Array.isArray(s.enum) && s.enum.includes(null)) return true;
    for (const key of ['oneOf', 'anyOf'])
      if (Array.isArray(s[key]) && (s[key] as Schema[]).some((m) => this.allowsNull(m)))
        return true;
    if (Array.isArray(s.allOf) && s.allOf.length > 0)
      return (s.allOf as Schema[]).every((m) => this.allowsNull(m));
    // A schema that says nothing (any value) allows null too.
    return (
      s.type === undefined &&
      s.properties === undefined &&
      s.items === undefined &&
      s.enum === undefined &&
      s.$ref === undefined
    );
  }

  /** The declared properties of an object schema, with those of its allOf members. */
  private properties(s: Schema, depth = 0): Record<string, Schema> {
    const out = { ...((s.properties ?? {}) as Record<string, Schema>) };
    if (depth < 8 && Array.isArray(s.allOf))
      for (const m of s.allOf as Schema[]) Object.assign(out, this.properties(this.resolve(m), depth + 1));
    return out;
  }
}
