import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { ApiKeyScope, TeamRole } from '../shared/teams';

/**
 * What a call made with an API key may do: the key's scopes and, for a team's key, the team it
 * acts for with its creator's current role there (read when the key was checked).
 */
export interface KeyGrant {
  id: string;
  scopes: readonly ApiKeyScope[];
  teamId: string | null;
  teamRole: TeamRole | null;
}

/** The authenticated caller, as set on `req.user` by the login or API-key layer. */
export interface Actor {
  id: string;
  username: string;
  roles: string[];
  /** Non-activated accounts log in but keep only anonymous abilities. */
  activated: boolean;
  /** Set when the call was authenticated with an API key (absent for a session). */
  key?: KeyGrant;
}

/** An admin's rights: ROLE_ADMIN, activated, and not acting through a team's key. */
export function isAdmin(actor: Actor | null | undefined): boolean {
  return !!actor && actor.activated && actor.roles.includes('ROLE_ADMIN') && !actor.key?.teamId;
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
