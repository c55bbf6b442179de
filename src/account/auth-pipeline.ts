import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ApiKeyService } from '../apikey/apikey.service';
import type { Actor } from '../common/actor';
import { originOf } from '../common/origin';
import { problem } from '../common/problem';
import { sendProblem } from '../common/problem.filter';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { hasSessionCookie } from '../common/session-cookie';
import { SessionService } from '../session/session.service';
import { toActor, UserService } from './user.service';

type AuthRequest = Request & { user?: Actor; authVia?: 'bearer' | 'session' };

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Query parameters that would carry a key; refused everywhere (keys leak from URLs into logs). */
const KEY_QUERY_PARAMS = ['api_key', 'apikey', 'access_token'];

function hasBody(req: Request): boolean {
  return (
    req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0
  );
}

/**
 * The request-level authentication, in order:
 * 1. a key in the query string → 400;
 * 2. `Authorization: Bearer` → the key's user with the key's grant (`actor.key`: scopes, team, the
 *    creator's current role there; cookies ignored, no session, no CSRF check); an unknown or
 *    expired key, or a team's key whose creator left the team → 401;
 * 3. session (API and management paths only, never the follow) → `req.user` from the session's user id,
 *    ending sessions past the absolute timeout or of deleted users;
 * 4. CSRF: a state-changing request that carries the session cookie needs a same-origin `Origin`
 *    (BASE_URL's origin or the request's own host) or `Sec-Fetch-Site: same-origin`, and, when it has a
 *    body or content type, a JSON content type. Else 403. Requests without the cookie are anonymous and
 *    not CSRF-relevant (curl/ShareX).
 */
@Injectable()
export class AuthPipeline {
  private readonly logger = new Logger('Auth');
  private readonly baseOrigin: string | null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: SessionService,
    private readonly users: UserService,
    private readonly apiKeys: ApiKeyService,
  ) {
    this.baseOrigin = originOf(config.baseUrl);
  }

  handlers(): RequestHandler[] {
    const session = this.sessions.middleware();
    return [
      (req: Request, res: Response, next: NextFunction) => {
        const q = req.query as Record<string, unknown>;
        if (KEY_QUERY_PARAMS.some((k) => q[k] !== undefined)) {
          return sendProblem(
            res,
            problem(
              400,
              'Bad Request',
              'API keys are not accepted in the query string; use Authorization: Bearer',
              req.path,
              { errorKey: 'api_key_in_query' },
            ),
          );
        }
        next();
      },
      (req: AuthRequest, res: Response, next: NextFunction) => {
        const header = req.headers.authorization;
        if (!header || !/^bearer\s/i.test(header)) return next();
        const key = header.slice(7).trim();
        this.apiKeys
          .authenticate(key)
          .then((found): Actor | null =>
            found ? { ...toActor(found.user), key: found.grant } : null,
          )
          .then((actor) => {
            if (!actor) {
              res.setHeader('WWW-Authenticate', 'Bearer error="invalid_token"');
              return sendProblem(
                res,
                problem(401, 'Unauthorized', 'Invalid API key', req.path, {
                  errorKey: 'api_key_invalid',
                }),
              );
            }
            req.user = actor;
            req.authVia = 'bearer';
            next();
          })
          .catch(next);
      },
      (req: AuthRequest, res: Response, next: NextFunction) => {
        if (req.authVia === 'bearer' || !SessionService.wants(req)) return next();
        session(req, res, (err?: unknown) => {
          if (err) return next(err);
          this.actorFromSession(req)
            .then(() => next())
            .catch(next);
        });
      },
      (req: AuthRequest, res: Response, next: NextFunction) => {
        const refusal = this.csrfRefusal(req);
        if (refusal)
          return sendProblem(
            res,
            problem(403, 'Forbidden', refusal, req.path, { errorKey: 'cross_site_refused' }),
          );
        next();
      },
    ];
  }

  private async actorFromSession(req: AuthRequest): Promise<void> {
    const auth = req.session?.auth;
    if (!auth) return;
    if (Date.now() - auth.loginAt > this.config.auth.sessionMaxAgeSeconds * 1000) {
      await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
      return;
    }
    const actor = await this.users.actor(auth.userId);
    if (!actor) {
      await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
      return;
    }
    req.user = actor;
    req.authVia = 'session';
  }

  /** Why a request is refused as cross-site, or null when it may pass. */
  csrfRefusal(req: AuthRequest): string | null {
    if (!STATE_CHANGING.has(req.method) || req.authVia === 'bearer') return null;
    if (!hasSessionCookie(req.headers.cookie)) return null;
    if (!this.isSameOrigin(req)) return 'Cross-site request refused';
    const type = req.headers['content-type'];
    if (
      (type !== undefined || hasBody(req)) &&
      !req.is(['application/json', 'application/*+json'])
    ) {
      return 'Cross-site request refused: JSON content type required';
    }
    return null;
  }

  private isSameOrigin(req: Request): boolean {
    const origin = req.headers.origin;
    if (origin === undefined || origin === '') {
      return req.headers['sec-fetch-site'] === 'same-origin';
    }
    const o = originOf(origin);
    if (!o) return false;
    if (o === this.baseOrigin) return true;
    // The origin the request itself was addressed to (direct access, tests on a random port).
    const host = req.headers.host;
    return !!host && o === `${req.protocol}://${host}`.toLowerCase();
  }
}
