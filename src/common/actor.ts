import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/** The authenticated caller, as set on `req.user` by the login or API-key layer. */
export interface Actor {
  id: string;
  username: string;
  roles: string[];
  /** Non-activated accounts log in but keep only anonymous abilities. */
  activated: boolean;
}

export function isAdmin(actor: Actor | null | undefined): boolean {
  return !!actor && actor.activated && actor.roles.includes('ROLE_ADMIN');
}

/** The caller with logged-in abilities, or null (anonymous or not activated). */
export function activeActor(actor: Actor | null | undefined): Actor | null {
  return actor && actor.activated ? actor : null;
}

export const CurrentActor = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Actor | null => {
    const req = ctx.switchToHttp().getRequest<Request & { user?: Actor }>();
    return req.user ?? null;
  },
);
