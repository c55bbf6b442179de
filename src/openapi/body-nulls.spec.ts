import type { OpenAPIObject } from '@nestjs/swagger';
import { describe, expect, it } from 'vitest';
import { BodyNullCheck } from './body-nulls';

const doc = {
  openapi: '3.0.0',
  info: { title: 't', version: '1' },
  paths: {
    '/api/code/import': {
      post: {
        requestBody: {
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Import' } } },
        },
      },
    },
    '/api/code/{id}': {
      patch: {
        requestBody: {
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Edit' } } },
        },
      },
    },
  },
  components: {
    schemas: {
      Import: {
        type: 'object',
        properties: { csv: { type: 'string' }, rows: { type: 'array', items: { type: 'object' } } },
      },
      Edit: {
        allOf: [{ $ref: '#/components/schemas/Base' }],
        properties: {
          name: { type: 'string', nullable: true },
          tag: { oneOf: [{ type: 'string' }, { type: 'null' }] },
          any: {},
        },
      },
      Base: { type: 'object', properties: { url: { type: 'string' } } },
    },
  },
} as unknown as OpenAPIObject;

describe('BodyNullCheck', () => {
  const check = new BodyNullCheck();
  check.load(doc);

  it('finds the operation of a path, a literal one before a template', () => {
    expect(check.schemaFor('POST', '/api/code/import')).toEqual({
      $ref: '#/components/schemas/Import',
    });
    expect(check.schemaFor('POST', '/api/code/import/')).not.toBeNull();
    expect(check.schemaFor('PATCH', '/api/code/abc')).not.toBeNull();
    expect(check.schemaFor('PATCH', '/api/code/a/b')).toBeNull();
    expect(check.schemaFor('GET', '/api/code/import')).toBeNull();
  });

  it('refuses a null where the schema allows none (issue 37: {"csv": null} answered 500)', () => {
    const imp = check.schemaFor('POST', '/api/code/import')!;
    expect(check.check(imp, { csv: null })).toEqual({ csv: 'csv must not be null' });
    expect(check.check(imp, { rows: null, csv: 'url' })).toEqual({
      rows: 'rows must not be null',
    });
    expect(check.check(imp, { csv: 'url' })).toEqual({});
    // Undeclared fields are the DTO checks' (400 as unknown), and so are nested values.
    expect(check.check(imp, { extra: null, rows: [null] })).toEqual({});
  });

  it('takes null where the schema says nullable, a null type, or nothing; follows allOf', () => {
    const edit = check.schemaFor('PATCH', '/api/code/x')!;
    expect(check.check(edit, { name: null, tag: null, any: null })).toEqual({});
    expect(check.check(edit, { url: null })).toEqual({ url: 'url must not be null' });
  });
});
