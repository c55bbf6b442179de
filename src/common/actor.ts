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

/**
 * Whether `actor` may manage what `ownerId` owns (change it, delete it, see its statistics, reports
 * and target): its owner or an admin; what nobody owns (anonymous shorts) only an admin.
 */
export function isOwnerOrAdmin(actor: Actor | null | undefined, ownerId: string | null): boolean {
  return !!actor && (isAdmin(actor) || (ownerId !== null && ownerId === actor.id));
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
