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

const AUTH_LEVEL = 'auth:level';
type Level = 'user' | 'admin';

/**
 * Checks `req.user` (the Actor set by the session or API-key layer):
 * none → 401; not activated → 403 (anonymous abilities only); `admin` level without
 * ROLE_ADMIN → 403.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(ctx: ExecutionContext): boolean {
    const level = this.reflector.getAllAndOverride<Level | undefined>(AUTH_LEVEL, [
      ctx.getHandler(),
      ctx.getClass(),
    ]);
    if (!level) return true;
    const actor = ctx.switchToHttp().getRequest<Request & { user?: Actor }>().user;
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

/** Callers with ROLE_ADMIN only. */
export const RequireAdmin = () =>
  applyDecorators(SetMetadata(AUTH_LEVEL, 'admin'), UseGuards(AuthGuard), ApiProblems(401, 403));
