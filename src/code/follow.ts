import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import { type FailureHandler, sendProblem } from '../common/problem.filter';
import { clientAddress, type TrustFn } from '../common/client-address';
import { clientKey, queryParam } from '../common/request';
import type { CodeService, FollowInput, FollowResult } from './code.service';

function location(code: string, result: FollowResult): string {
  const c = encodeURIComponent(code);
  switch (result.kind) {
    case 'target':
      return result.url;
    case 'not-found':
      return `/s/${c}/not-found`;
    case 'dangerous':
      return `/s/${c}/potentially-dangerous`;
    case 'password-required':
      return `/s/${c}/password-required`;
    case 'wrong-password':
      return `/s/${c}/password-required?wrong=true`;
    case 'locked':
      return `/s/${c}/password-required?locked=true`;
  }
}

/** Baseline headers every answer carries (the same as configureApp sets for Express). */
export const SECURITY_HEADERS: ReadonlyArray<[string, string]> = [
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
];

/** Runs the follow decision and writes the 302. */
async function answer(
  codes: CodeService,
  code: string,
  input: FollowInput,
  res: ServerResponse,
): Promise<void> {
  const result = await codes.follow(code, input);
  res.statusCode = 302;
  for (const [k, v] of SECURITY_HEADERS) res.setHeader(k, v);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader(
    'Referrer-Policy',
    result.kind === 'target' ? 'no-referrer' : 'strict-origin-when-cross-origin',
  );
  res.setHeader('Location', location(code, result));
  res.end();
}

/** Follow through Express (used by the documented Nest routes). */
export function followAndRedirect(
  codes: CodeService,
  code: string,
  req: Request,
  res: Response,
): Promise<void> {
  return answer(
    codes,
    code,
    {
      acceptDanger: queryParam(req, 'accept_danger') === 'true',
      password: queryParam(req, 'password'),
      client: clientKey(req),
    },
    res,
  );
}

const FOLLOW_PATH = /^\/(s|api\/code)\/([^/?#]+)\/?(?:\?(.*))?$/;

/**
 * The hot path: GET/HEAD /s/{code} and GET /api/code/{code} (without redirect=false) are
 * answered straight from the HTTP server's request event, before Express and Nest routing,
 * with exactly the logic of the documented routes (which stay as the fallback and in the
 * OpenAPI spec). No session, no body parsing, no logging per request.
 * Everything else is passed on to the original listeners untouched.
 */
export function installFollowFastPath(
  server: Server,
  codes: CodeService,
  trust: TrustFn,
  failures: FailureHandler,
): void {
  const listeners = server.listeners('request') as Array<
    (req: IncomingMessage, res: ServerResponse) => void
  >;
  server.removeAllListeners('request');
  const fallback = (req: IncomingMessage, res: ServerResponse) => {
    for (const l of listeners) l.call(server, req, res);
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const m =
      req.method === 'GET' || req.method === 'HEAD' ? FOLLOW_PATH.exec(req.url ?? '') : null;
    if (!m) return fallback(req, res);
    const query = new URLSearchParams(m[3] ?? '');
    if (m[1] === 'api/code' && query.get('redirect') === 'false') return fallback(req, res);
    let code: string;
    try {
      code = decodeURIComponent(m[2]);
    } catch {
      return fallback(req, res);
    }
    const input: FollowInput = {
      acceptDanger: query.get('accept_danger') === 'true',
      password: query.get('password') ?? undefined,
      client: clientAddress(req, trust),
    };
    answer(codes, code, input, res).catch((err: unknown) => {
      if (res.headersSent) return res.destroy();
      sendProblem(
        res,
        failures.request(err, { method: req.method ?? 'GET', path: `/${m[1]}/${m[2]}` }),
      );
    });
  });
}
