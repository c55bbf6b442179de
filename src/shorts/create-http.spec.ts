import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import express from 'express';
import { BODY_READ, type BodyReadRequest, jsonBodyReader } from '../common/json-body';
import { RateLimitedError } from '../common/errors';
import { toProblem } from '../failure/to-problem';
import type { LogService } from '../logging/log.service';
import { currentRequestId } from '../logging/log.service';
import type { MetricsService } from '../metrics/metrics.service';
import { CreateShortDto } from './dto/create-short.dto';
import { type CreateEntryDeps, installCreateEntry, isAnonymousJsonCreate } from './create-http';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(
  port: number,
  opts: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: opts.method ?? 'POST',
        path: opts.path ?? '/api/code',
        headers: opts.headers ?? { 'content-type': 'application/json' },
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** What the fallback (Express) saw of a request it got. */
interface Fallen {
  url: string;
  read?: { error?: unknown };
  body?: unknown;
  rawBody: string;
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

async function setup(create: CreateEntryDeps['shorts']['create'], trust = () => false) {
  const fallen: Fallen[] = [];
  const calls: Array<Parameters<CreateEntryDeps['shorts']['create']>> = [];
  const recorded: unknown[][] = [];
  const failures: unknown[][] = [];
  server = createServer((req: IncomingMessage & { body?: unknown }, res) => {
    const answer = (rawBody: string) => {
      const read = (req as BodyReadRequest)[BODY_READ];
      fallen.push({ url: req.url!, read, body: req.body, rawBody });
      res.statusCode = 299;
      res.end('fallback');
    };
    // A body read by the entry is not there to read again (body-parser skips a finished request).
    if ((req as BodyReadRequest)[BODY_READ]) return answer('');
    let rawBody = '';
    req.on('data', (d: Buffer) => (rawBody += d.toString()));
    req.on('end', () => answer(rawBody));
  });
  installCreateEntry(server, {
    shorts: {
      create: (...args) => {
        calls.push(args);
        return create(...args);
      },
    },
    readBody: jsonBodyReader('16kb'),
    trust,
    failures: {
      request: (err, req) => {
        failures.push([err, req]);
        return toProblem(err, req.path).body;
      },
    },
    log: { isEnabled: () => false } as unknown as LogService,
    metrics: { recordHttp: (...a: unknown[]) => recorded.push(a) } as unknown as MetricsService,
    etag: etagFn,
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { port, fallen, calls, recorded, failures };
}

/** Express's own ETag function (`etag fn`: weak by default), as the app hands it to the entry. */
const etagFn = express().get('etag fn') as (body: Buffer | string) => string;

const created = () => Promise.resolve({ code: 'abc', id: 'x', shortUrl: 'http://h/s/abc' });

describe('isAnonymousJsonCreate', () => {
  const req = (method: string, url: string, headers: Record<string, string>) =>
    ({ method, url, headers }) as unknown as IncomingMessage;
  const json = { 'content-type': 'application/json', 'content-length': '10' };

  it('takes an anonymous POST /api/code with a JSON body of known length', () => {
    expect(isAnonymousJsonCreate(req('POST', '/api/code', json))).toBe(true);
    expect(
      isAnonymousJsonCreate(
        req('POST', '/api/code', { ...json, 'content-type': 'application/json; charset=UTF-8' }),
      ),
    ).toBe(true);
    expect(isAnonymousJsonCreate(req('POST', '/api/code', { ...json, cookie: 'a=b' }))).toBe(true);
  });

  it('leaves everything else to Express', () => {
    expect(isAnonymousJsonCreate(req('GET', '/api/code', json))).toBe(false);
    expect(isAnonymousJsonCreate(req('POST', '/api/code/', json))).toBe(false);
    expect(isAnonymousJsonCreate(req('POST', '/api/code?x=1', json))).toBe(false);
    expect(isAnonymousJsonCreate(req('POST', '/API/code', json))).toBe(false);
    expect(isAnonymousJsonCreate(req('POST', '/api/code/import', json))).toBe(false);
    expect(
      isAnonymousJsonCreate(req('POST', '/api/code', { ...json, authorization: 'Bearer k' })),
    ).toBe(false);
    expect(
      isAnonymousJsonCreate(
        req('POST', '/api/code', { ...json, cookie: 'a=b; url_shorter_session=s%3Ax' }),
      ),
    ).toBe(false);
    expect(
      isAnonymousJsonCreate(req('POST', '/api/code', { ...json, 'content-type': 'text/plain' })),
    ).toBe(false);
    expect(
      isAnonymousJsonCreate(
        req('POST', '/api/code', { ...json, 'content-type': 'application/merge-patch+json' }),
      ),
    ).toBe(false);
    expect(
      isAnonymousJsonCreate(req('POST', '/api/code', { 'content-type': 'application/json' })),
    ).toBe(false);
    expect(
      isAnonymousJsonCreate(req('POST', '/api/code', { ...json, 'content-encoding': 'gzip' })),
    ).toBe(false);
    expect(
      isAnonymousJsonCreate(req('POST', '/api/code', { ...json, 'transfer-encoding': 'chunked' })),
    ).toBe(false);
  });
});

describe('installCreateEntry', () => {
  it('answers an anonymous create itself: the service call and the answer Express would write', async () => {
    let requestId: string | undefined;
    const t = await setup(() => {
      requestId = currentRequestId();
      return created();
    });
    const a = await send(t.port, {
      headers: { 'content-type': 'application/json', 'x-request-id': 'rid-1', host: 'kurz.test' },
      body: '{"url":"https://example.com/"}',
    });
    expect(t.fallen).toEqual([]);
    expect(a.status).toBe(201);
    expect(a.body).toBe('{"code":"abc","shortUrl":"http://h/s/abc"}');
    expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(a.headers['content-length']).toBe(String(a.body.length));
    expect(a.headers.etag).toBe(etagFn(a.body));
    expect(a.headers['x-request-id']).toBe('rid-1');
    expect(a.headers['x-content-type-options']).toBe('nosniff');
    expect(a.headers['x-frame-options']).toBe('DENY');
    expect(a.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(requestId).toBe('rid-1');
    const [dto, actor, origin] = t.calls[0];
    expect(dto).toBeInstanceOf(CreateShortDto);
    expect({ ...dto }).toEqual({ url: 'https://example.com/' });
    expect(actor).toBeNull();
    expect(origin).toEqual({ host: 'kurz.test', protocol: 'http', client: '127.0.0.1' });
    expect(t.recorded).toHaveLength(1);
    expect(t.recorded[0].slice(0, 3)).toEqual(['POST', '/api/code', 201]);
  });

  it('reads the protocol and the client from a trusted proxy as Express does', async () => {
    const t = await setup(created, () => true);
    await send(t.port, {
      headers: {
        'content-type': 'application/json',
        'x-forwarded-proto': 'https, http',
        'x-forwarded-for': '203.0.113.9',
        host: 'kurz.test',
      },
      body: '{"url":"https://example.com/"}',
    });
    expect(t.calls[0][2]).toEqual({ host: 'kurz.test', protocol: 'https', client: '203.0.113.9' });
  });

  it("answers the service's refusal as problem+json through the failure handler", async () => {
    const t = await setup(() => Promise.reject(new RateLimitedError(7)));
    const a = await send(t.port, {
      headers: { 'content-type': 'application/json', 'x-request-id': 'rid-2' },
      body: '{"url":"https://example.com/"}',
    });
    expect(a.status).toBe(429);
    expect(a.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(a.headers['retry-after']).toBe('7');
    expect(a.headers['x-request-id']).toBe('rid-2');
    expect(JSON.parse(a.body)).toMatchObject({ status: 429, instance: '/api/code' });
    expect(t.failures[0][1]).toEqual({
      method: 'POST',
      path: '/api/code',
      requestId: 'rid-2',
      route: '/api/code',
    });
    expect(t.recorded[0].slice(0, 3)).toEqual(['POST', '/api/code', 429]);
  });

  it('passes requests it does not take to Express with their body unread', async () => {
    const t = await setup(created);
    const body = '{"url":"https://example.com/"}';
    const answers = [
      await send(t.port, { path: '/api/code?x=1', body }),
      await send(t.port, {
        headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
        body,
      }),
      await send(t.port, { headers: { 'content-type': 'text/plain' }, body }),
      await send(t.port, { method: 'GET', path: '/s/abc' }),
    ];
    expect(answers.map((a) => a.status)).toEqual([299, 299, 299, 299]);
    expect(t.calls).toEqual([]);
    expect(t.fallen.map((f) => [f.url, f.read, f.rawBody])).toEqual([
      ['/api/code?x=1', undefined, body],
      ['/api/code', undefined, body],
      ['/api/code', undefined, body],
      ['/s/abc', undefined, ''],
    ]);
  });

  it('passes a body it read but does not take to Express with the outcome of the reading', async () => {
    const t = await setup(created);
    await send(t.port, { body: '{"url":"https://example.com/","x":1}' });
    await send(t.port, { body: '{"url":' });
    await send(t.port, { body: '{"url":"https://example.com/\\u0000"}' });
    await send(t.port, { body: JSON.stringify({ url: 'x'.repeat(20_000) }) });
    await send(t.port, { body: '[1]' });
    expect(t.calls).toEqual([]);
    expect(t.fallen).toHaveLength(5);
    const [fields, malformed, nul, large, array] = t.fallen;
    expect(fields.read).toEqual({ error: undefined });
    expect(fields.body).toEqual({ url: 'https://example.com/', x: 1 });
    expect(malformed.read?.error).toMatchObject({ status: 400, type: 'entity.parse.failed' });
    expect(nul.read?.error).toMatchObject({ fieldErrors: { url: expect.any(String) } });
    expect(large.read?.error).toMatchObject({ status: 413, type: 'entity.too.large' });
    expect(array.read).toEqual({ error: undefined });
    expect(array.body).toEqual([1]);
  });
});
