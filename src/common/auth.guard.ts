import {
  applyDecorators,
  type CanActivate,
  type ExecutionContext,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { type Actor, isAdmin } from './actor';
import { ForbiddenError, UnauthorizedError } from './errors';
import { ApiProblems } from './api-problems';
import type { ApiKeyScope } from '../shared/teams';

const AUTH_LEVEL = 'auth:level';
/** The metadata key of `@Scope` (read by the guard, and by the test that holds every scoped route in its table). */
export const AUTH_SCOPE = 'auth:scope';
type Level = 'user' | 'admin';

/**
 * Checks `req.user` (the Actor set by the session or API-key layer):
 * none → 401; not activated → 403 (anonymous abilities only); `admin` level without
 * ROLE_ADMIN → 403. A call made with an API key needs the route's scope (`@Scope`): a route that
 * names none is for sessions only, and a key without the scope answers 403 `scope_missing`
 * (CONTRACT "API keys (several, named, scoped)").
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(ctx: ExecutionContext): boolean {
    const level = this.reflector.getAllAndOverride<Level | undefined>(AUTH_LEVEL, [
      ctx.getHandler(),
      ctx.getClass(),
    ]);
    const scope = this.reflector.getAllAndOverride<ApiKeyScope | undefined>(AUTH_SCOPE, [
      ctx.getHandler(),
      ctx.getClass(),
    ]);
    const actor = ctx.switchToHttp().getRequest<Request & { user?: Actor }>().user;
    if (actor?.key && (level || scope) && !(scope && actor.key.scopes.includes(scope))) {
      throw new ForbiddenError(
        scope ? `This API key lacks the scope ${scope}` : 'API keys may not do this',
        'scope_missing',
      );
    }
    if (!level) return true;
    if (!actor) throw new UnauthorizedError();
    if (!actor.activated)
      throw new ForbiddenError('Account is not activated', 'account_not_activated');
    if (level === 'admin' && !isAdmin(actor))
      throw new ForbiddenError('Admin role required', 'admin_required');
    return true;
  }
}

/** Logged-in (and activated) callers only. */
export const RequireUser = () =>
  applyDecorators(SetMetadata(AUTH_LEVEL, 'user'), UseGuards(AuthGuard), ApiProblems(401, 403));

/**
 * The scope an API key needs for this route (sessions need none). Routes under RequireUser or
 * RequireAdmin without a scope refuse keys; routes open to anyone refuse only keys without it.
 */
export const Scope = (scope: ApiKeyScope) =>
  applyDecorators(SetMetadata(AUTH_SCOPE, scope), UseGuards(AuthGuard));

/** Callers with ROLE_ADMIN only. */
export const RequireAdmin = () =>
  applyDecorators(SetMetadata(AUTH_LEVEL, 'admin'), UseGuards(AuthGuard), ApiProblems(401, 403));
