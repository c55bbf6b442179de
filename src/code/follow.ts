import type { Request, Response } from 'express';
import { clientKey, queryParam } from '../common/request';
import type { CodeService, FollowResult } from './code.service';

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

/**
 * The follow path shared by GET /api/code/{code} and GET /s/{code}: no session,
 * no body, one cached lookup, at most one conditional UPDATE, a 302.
 */
export async function followAndRedirect(
  codes: CodeService,
  code: string,
  req: Request,
  res: Response,
): Promise<void> {
  const result = await codes.follow(code, {
    acceptDanger: queryParam(req, 'accept_danger') === 'true',
    password: queryParam(req, 'password'),
    client: clientKey(req),
  });
  res.statusCode = 302;
  res.setHeader('Cache-Control', 'no-store');
  if (result.kind === 'target') res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Location', location(code, result));
  res.end();
}
