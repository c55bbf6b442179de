/**
 * Teams and API-key scopes as server and web client share them (CONTRACT "Teams", "API keys
 * (several, named, scoped)").
 */

/** A team member's role, from most to fewest rights. */
export const TEAM_ROLES = ['owner', 'editor', 'viewer'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** What an API key may do; a call outside its scopes answers 403 `scope_missing`. */
export const API_KEY_SCOPES = [
  'shorts:read',
  'shorts:write',
  'statistics:read',
  'domains:read',
  'domains:write',
  'webhooks:write',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** The scopes a viewer's team key may hold (read only). */
export const READ_SCOPES: readonly ApiKeyScope[] = [
  'shorts:read',
  'statistics:read',
  'domains:read',
];

/** Whether a role may change what the team owns (create, edit, delete shorts; use its domains). */
export function roleMayWrite(role: TeamRole | null | undefined): boolean {
  return role === 'owner' || role === 'editor';
}

export const LIMIT_TEAM_MEMBERS = 100;
export const LIMIT_API_KEYS = 20;
/** Team and key names: 1–64 characters. */
export const TEAM_NAME_MAX = 64;
export const API_KEY_NAME_MAX = 64;
/** Invite links are valid this long. */
export const INVITE_DAYS = 7;
/** The spec's single key (GET/PUT /api/self/apikey) is the key of this name. */
export const SHAREX_KEY_NAME = 'ShareX';
