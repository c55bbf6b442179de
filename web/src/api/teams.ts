import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ApiKeyScope, TeamRole } from '@shared/teams';
import { call } from './call';
import type { Schemas } from './client';
import { setTeams } from '../state/space';

/**
 * Teams, invites and the named, scoped API keys (CONTRACT "Teams", "API keys (several, named,
 * scoped)"): the types of the OpenAPI document (web/src/api/schema.d.ts, generated).
 */

/** A team as its member sees it: `role` is the caller's. */
export type TeamDto = Schemas['TeamDto'];
/** A member of a team. */
export type TeamMemberDto = Schemas['TeamMemberDto'];
/** A new invite link (valid INVITE_DAYS, used once). */
export type TeamInviteDto = Schemas['TeamInviteDto'];
/** A team as a short, a domain or a key names it. */
export type TeamRefDto = Schemas['TeamRefDto'];
/** One of the caller's API keys (never the key itself). */
export type ApiKeySummaryDto = Schemas['ApiKeySummaryDto'];
/** A key just created: the summary plus the key, shown in this answer only. */
export type CreatedApiKeyDto = Schemas['CreatedApiKeyDto'];

export interface CreateApiKeyBody {
  name: string;
  scopes: ApiKeyScope[];
  team?: string;
  expiresAt?: string;
}

export { call } from './call';

const id = (s: string) => encodeURIComponent(s);

export const teamsApi = {
  list: () => call<TeamDto[]>('GET', '/api/teams'),
  create: (name: string) => call<TeamDto>('POST', '/api/teams', { name }),
  rename: (team: string, name: string) =>
    call<TeamDto>('PATCH', `/api/teams/${id(team)}`, { name }),
  remove: (team: string) => call('DELETE', `/api/teams/${id(team)}`),
  members: (team: string) => call<TeamMemberDto[]>('GET', `/api/teams/${id(team)}/members`),
  setRole: (team: string, user: string, role: TeamRole) =>
    call('PATCH', `/api/teams/${id(team)}/members/${id(user)}`, { role }),
  removeMember: (team: string, user: string) =>
    call('DELETE', `/api/teams/${id(team)}/members/${id(user)}`),
  invite: (team: string, role: TeamRole) =>
    call<TeamInviteDto>('POST', `/api/teams/${id(team)}/invites`, { role }),
  accept: (token: string) => call<TeamDto>('POST', `/api/invites/${id(token)}`),
  /** Moves a short into a team (id) or back into the caller's own space (null). */
  moveShort: (short: string, team: string | null) =>
    call('PATCH', `/api/code/${id(short)}`, { team }),
};

export const keysApi = {
  list: () => call<ApiKeySummaryDto[]>('GET', '/api/self/apikeys'),
  create: (body: CreateApiKeyBody) => call<CreatedApiKeyDto>('POST', '/api/self/apikeys', body),
  revoke: (key: string) => call('DELETE', `/api/self/apikeys/${id(key)}`),
};

/* ---- react-query hooks (the pages that show server data; never the start page) ---- */

export const MEMBERS_KEY = ['teams', 'members'] as const;
export const API_KEYS_KEY = ['get', '/api/self/apikeys'] as const;

/** The members of a team. */
export function useMembers(team: string) {
  return useQuery({ queryKey: [...MEMBERS_KEY, team], queryFn: () => teamsApi.members(team) });
}

const reloadMembers = (client: QueryClient, team: string) =>
  void client.invalidateQueries({ queryKey: [...MEMBERS_KEY, team] });

export function useSetRole(team: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ user, role }: { user: string; role: TeamRole }) =>
      teamsApi.setRole(team, user, role),
    onSuccess: () => reloadMembers(client, team),
  });
}

export function useRemoveMember(team: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (user: string) => teamsApi.removeMember(team, user),
    onSuccess: () => reloadMembers(client, team),
  });
}

export function useCreateInvite(team: string) {
  return useMutation({ mutationFn: (role: TeamRole) => teamsApi.invite(team, role) });
}

/** The caller's API keys. */
export function useApiKeys() {
  return useQuery({ queryKey: API_KEYS_KEY, queryFn: keysApi.list });
}

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: keysApi.create,
    onSuccess: () => void client.invalidateQueries({ queryKey: API_KEYS_KEY }),
  });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: keysApi.revoke,
    onSuccess: () => void client.invalidateQueries({ queryKey: API_KEYS_KEY }),
  });
}

/** Loads the caller's teams into the space state (the switcher, the team pages, after changes). */
export async function reloadTeams(): Promise<TeamDto[]> {
  const teams = await teamsApi.list();
  setTeams(teams);
  return teams;
}
