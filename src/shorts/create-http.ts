import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { putInFront } from '../common/request-entry';
import { BODY_READ, type BodyReader, type BodyReadRequest } from '../common/json-body';
import { API_HEADERS } from '../common/security-headers';
import { hasSessionCookie } from '../common/session-cookie';
import { clientAddress, type TrustFn } from '../common/client-address';
import { type FailureHandler, sendProblem } from '../common/problem.filter';
import { requestProtocol } from '../common/request';
import { acceptsAsIs } from '../common/validation';
import type { LogService } from '../logging/log.service';
import { requestContext } from '../logging/log.service';
import { observeRequest, requestIdOf } from '../logging/request-context.middleware';
import type { MetricsService } from '../metrics/metrics.service';
import { CreateShortDto } from './dto/create-short.dto';
import type { ShortCreateService } from './short-create.service';

/** The route of the create (`ShortController.createShort`), as Express and the metrics name it. */
export const CREATE_PATH = '/api/code';

/** The content types the entry takes (anything else goes the documented way, 415 included). */
const JSON_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

export interface CreateEntryDeps {
  shorts: Pick<ShortCreateService, 'create'>;
  /** The app's JSON body reader for the create's limit (app.setup.ts: the same as Express's). */
  readBody: BodyReader;
  /** The TRUST_PROXY trust function (the same one Express uses). */
  trust: TrustFn;
  failures: FailureHandler;
  log: LogService;
  metrics: MetricsService;
  /** Express's ETag function (`etag fn`; undefined when ETags are off). */
  etag?: (body: string | Buffer, encoding?: string) => string | undefined;
}

/**
 * Whether the entry may take a request, from its head alone: `POST /api/code` exactly, with a JSON
 * body of a known length, neither an API key nor the session cookie (an anonymous caller: no
 * session, no CSRF check, `req.user` unset), and no transfer coding.
 */
export function isAnonymousJsonCreate(req: IncomingMessage): boolean {
  if (req.method !== 'POST' || req.url !== CREATE_PATH) return false;
  const h = req.headers;
  if (h.authorization !== undefined) return false;
  if (hasSessionCookie(h.cookie)) return false;
  if (h['transfer-encoding'] !== undefined || h['content-encoding'] !== undefined) return false;
  if (!(Number(h['content-length']) > 0)) return false;
  return JSON_TYPE.test(h['content-type'] ?? '');
}

/**
 * The anonymous create (`POST /api/code` with a plain JSON body, no session: the ShareX and curl
 * case, and the bench's) answered from the HTTP server's request event, before Express and Nest,
 * as the documented route answers it. It takes only what the route would take without any
 * refusal of the pipeline: an anonymous request (isAnonymousJsonCreate) whose body the app's JSON
 * reader reads without refusal and whose fields the validation pipe takes as they are
 * (`acceptsAsIs`). What the route does then is the same call: `ShortCreateService.create` (checks,
 * the rate limit, the INSERT), and the answer as Express writes it (201, JSON, the API headers, the
 * request id, Express's ETag); its failures go through the same FailureHandler as the route's
 * (problem+json). It keeps the request id and its log context and the per-route HTTP metrics.
 *
 * Every other request goes to Express untouched; a create whose body was read but is not taken
 * (refused by the reader, or for the full validation pipe) goes to Express with the body and the
 * reader's outcome (BODY_READ), so the rest of the pipeline answers it exactly as before.
 */
export function installCreateEntry(server: Server, deps: CreateEntryDeps): void {
  putInFront(server, (req, res, fallback) => {
    if (!isAnonymousJsonCreate(req)) return fallback(req, res);
    const start = process.hrtime.bigint();
    deps.readBody(req, res, (error?: unknown) => {
      const body = (req as IncomingMessage & { body?: unknown }).body;
      if (error !== undefined || !acceptsAsIs(CreateShortDto, body)) {
        (req as BodyReadRequest)[BODY_READ] = { error };
        return fallback(req, res);
      }
      create(deps, req, res, body, start);
    });
  });
}

function create(
  deps: CreateEntryDeps,
  req: IncomingMessage,
  res: ServerResponse,
  body: Record<string, unknown>,
  start: bigint,
): void {
  const id = requestIdOf(req);
  res.setHeader('X-Request-Id', id);
  for (const [name, value] of API_HEADERS) res.setHeader(name, value);
  observeRequest(
    deps.log,
    deps.metrics,
    { method: 'POST', path: CREATE_PATH, id, start, route: () => CREATE_PATH },
    res,
  );
  const origin = {
    host: req.headers.host,
    protocol: requestProtocol(req, deps.trust),
    client: clientAddress(req, deps.trust),
  };
  requestContext.run({ requestId: id }, () => {
    deps.shorts
      .create(Object.assign(new CreateShortDto(), body), null, origin)
      .then(({ code, shortUrl }) => sendCreated(res, { code, shortUrl }, deps.etag))
      .catch((err: unknown) => {
        if (res.headersSent) return res.destroy();
        sendProblem(
          res,
          deps.failures.request(err, {
            method: 'POST',
            path: CREATE_PATH,
            requestId: id,
            route: CREATE_PATH,
          }),
        );
      });
  });
}

/**
 * The 201 as Express's `res.json` writes it (a JSON body is never 304 to a POST). The same bytes:
 * Express hands Node a Buffer, which goes out as a second chunk after the head; a string goes out
 * with the head in one write.
 */
function sendCreated(res: ServerResponse, answer: object, etag: CreateEntryDeps['etag']): void {
  const body = JSON.stringify(answer);
  res.statusCode = 201;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  const tag = etag?.(body);
  if (tag) res.setHeader('ETag', tag);
  res.end(body);
}
