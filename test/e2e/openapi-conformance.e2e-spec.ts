import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app';
import { buildOpenApiDocument } from '../../src/openapi/document';
import { checkResponse, expectMatchesSpec, openApiDocument } from '../support/openapi';

/** Real responses of the running app, checked against the committed openapi/openapi.json. */
describe('OpenAPI conformance', () => {
  let code: string;
  let id: string;

  const t = useTestApp();

  it('create answers 201 as documented', async () => {
    const res = await t.post('/api/code', { url: 'https://example.com/openapi' });
    expect(res.status).toBe(201);
    const body = (await checkResponse('POST', '/api/code', res)) as { code: string };
    code = body.code;
    expect(code).toBeTruthy();
  });

  it('info answers 200 with the documented Short', async () => {
    const res = await t.fetch(`/api/code/${code}?redirect=false`);
    expect(res.status).toBe(200);
    const body = (await checkResponse('GET', '/api/code/{id}', res)) as { id: string; url: string };
    expect(body.url).toBe('https://example.com/openapi');
    id = body.id;
  });

  it('follow answers a documented 302 on both follow routes', async () => {
    for (const [path, template] of [
      [`/s/${code}`, '/s/{code}'],
      [`/api/code/${code}`, '/api/code/{id}'],
    ] as const) {
      const res = await t.fetch(path);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('https://example.com/openapi');
      await checkResponse('GET', template, res);
    }
  });

  it('an unknown code answers the documented 404 problem', async () => {
    const res = await t.fetch('/api/code/doesNotExist?redirect=false');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const body = (await checkResponse('GET', '/api/code/{id}', res)) as { errorKey?: string };
    expect(body.errorKey).toBe('entity_not_exists');
  });

  it('a validation error answers the documented 400 problem with fieldErrors', async () => {
    const res = await t.post('/api/code', { url: 42, extra: true });
    expect(res.status).toBe(400);
    const body = (await checkResponse('POST', '/api/code', res)) as {
      fieldErrors?: Record<string, string>;
    };
    expect(Object.keys(body.fieldErrors ?? {}).sort()).toEqual(['extra', 'url']);
  });

  it('deleting an unknown id anonymously answers the documented 401 problem', async () => {
    const res = await t.fetch(`/api/code/${randomUUID()}`, { method: 'DELETE' });
    expect(res.status).toBe(401);
    const body = (await checkResponse('DELETE', '/api/code/{id}', res)) as { status: number };
    expect(body.status).toBe(401);
    // The short created above is still there (the refused delete did nothing).
    expect(id).toBeTruthy();
    expect((await t.fetch(`/api/code/${code}?redirect=false`)).status).toBe(200);
  });

  // Anonymous calls of the other documented routes: each answer must match the spec.
  it.each([
    ['GET', '/api/logged-in', 200],
    ['GET', '/api/account', 401],
    ['GET', '/api/auth-providers', 200],
    ['GET', '/api/frontend', 200],
    ['GET', '/api/code', 401],
    ['GET', '/api/self/apikey', 401],
    ['GET', '/management/info', 401],
    ['GET', '/api/admin/entity', 401],
  ] as const)('%s %s answers a documented %i', async (method, path, status) => {
    const res = await t.fetch(path, { method });
    expect(res.status).toBe(status);
    await checkResponse(method, path, res);
  });

  it('health answers a documented status (200 UP or 503 DOWN)', async () => {
    const res = await t.fetch('/management/health');
    expect([200, 503]).toContain(res.status);
    const body = (await checkResponse('GET', '/management/health', res)) as { status: string };
    expect(body.status).toBe(res.status === 200 ? 'UP' : 'DOWN');
  });

  it('reporting while anonymous answers the documented 401 problem', async () => {
    const res = await t.post(`/api/code/${code}/report`, { reason: 'spam', description: 'x' });
    expect(res.status).toBe(401);
    await checkResponse('POST', '/api/code/{code}/report', res);
  });

  /** Every operation that takes a body: method, path template and a path to call it on. */
  function bodyOperations(doc: { paths: Record<string, unknown> }) {
    const out: Array<{
      method: string;
      template: string;
      path: string;
      responses: Record<string, any>;
    }> = [];
    for (const [template, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(item as Record<string, any>))
        if (op && typeof op === 'object' && op.requestBody)
          out.push({
            method: method.toUpperCase(),
            template,
            path: template.replace(/\{[^}]+\}/g, 'abc1234'),
            responses: op.responses as Record<string, any>,
          });
    return out;
  }

  // Issue 37: 413 and 415 were documented on 3 operations, but the body reader answers them on all.
  it('documents 413 and 415 as problem+json on every operation that takes a body', () => {
    for (const doc of [openApiDocument(), buildOpenApiDocument(t.app)]) {
      const ops = bodyOperations(doc as { paths: Record<string, unknown> });
      expect(ops.length).toBeGreaterThanOrEqual(10);
      const missing = ops.flatMap((op) =>
        ['413', '415']
          .filter(
            (status) =>
              !op.responses[status]?.content?.['application/problem+json']?.schema?.$ref?.endsWith(
                '/Problem',
              ),
          )
          .map((status) => `${op.method} ${op.template} ${status}`),
      );
      expect(missing).toEqual([]);
    }
  });

  it('answers every operation that takes a body with a documented 415 and 413', async () => {
    for (const op of bodyOperations(openApiDocument() as { paths: Record<string, unknown> })) {
      const wrongType = await t.fetch(op.path, {
        method: op.method,
        headers: { 'content-type': 'text/plain' },
        body: 'url=https://example.com/',
      });
      // POST /s/{code} also takes a form post; any other type is refused the same way.
      expect(wrongType.status, `${op.method} ${op.path}`).toBe(415);
      await checkResponse(op.method, op.template, wrongType);

      const large = await t.fetch(op.path, {
        method: op.method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'x'.repeat(2.1 * 1024 * 1024) }),
      });
      expect(large.status, `${op.method} ${op.path}`).toBe(413);
      await checkResponse(op.method, op.template, large);
    }
  });

  describe('the checker itself', () => {
    const short = {
      id: randomUUID(),
      code: 'abcdefg',
      domain: null,
      shortUrl: 'http://127.0.0.1/s/abcdefg',
      name: null,
      url: 'https://example.com/',
      hasPassword: false,
      maxUses: null,
      createdAt: new Date().toISOString(),
      expireAt: null,
      owner: null,
      dangers: false,
      preview: null,
    };

    it('accepts a body that matches, including nullable fields', () => {
      expect(() =>
        expectMatchesSpec('GET', '/api/code/{id}', 200, short, 'application/json'),
      ).not.toThrow();
      const owned = { ...short, owner: { id: randomUUID(), username: 'alice' } };
      expect(() =>
        expectMatchesSpec('GET', '/api/code/{id}', 200, owned, 'application/json'),
      ).not.toThrow();
    });

    it('rejects wrong types, missing and undocumented fields with a readable message', () => {
      expect(() =>
        expectMatchesSpec(
          'GET',
          '/api/code/{id}',
          200,
          { ...short, maxUses: 'ten' },
          'application/json',
        ),
      ).toThrow(/\/maxUses must be integer/);
      const { dangers: _dangers, ...missing } = short;
      expect(() =>
        expectMatchesSpec('GET', '/api/code/{id}', 200, missing, 'application/json'),
      ).toThrow(/must have required property 'dangers'/);
      expect(() =>
        expectMatchesSpec(
          'GET',
          '/api/code/{id}',
          200,
          { ...short, secret: 'x' },
          'application/json',
        ),
      ).toThrow(/"secret" \(undocumented field\)/);
      expect(() =>
        expectMatchesSpec(
          'GET',
          '/api/code/{id}',
          200,
          { ...short, owner: { id: 'x' } },
          'application/json',
        ),
      ).toThrow(/owner/);
    });

    it('rejects undocumented statuses, content types and bodies on bodiless responses', () => {
      expect(() => expectMatchesSpec('POST', '/api/code', 418, {}, 'application/json')).toThrow(
        /not a documented status/,
      );
      expect(() =>
        expectMatchesSpec('GET', '/api/code/{id}', 404, { status: 404 }, 'application/json'),
      ).toThrow(/content type "application\/json"/);
      expect(() => expectMatchesSpec('GET', '/s/{code}', 302, 'Found', 'text/plain')).toThrow(
        /without a body/,
      );
      expect(() => expectMatchesSpec('GET', '/nope', 200, {}, 'application/json')).toThrow(
        /not documented/,
      );
    });
  });
});
