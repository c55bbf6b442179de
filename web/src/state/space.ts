import { proxy } from 'valtio';
import { roleMayWrite, type TeamRole } from '@shared/teams';

/** The caller's teams as the switcher knows them (`GET /api/teams`). */
export interface SpaceTeam {
  readonly id: string;
  readonly name: string;
  readonly role: TeamRole;
}

/** Where the chosen space is kept (a preference, like the theme). */
export const SPACE_KEY = 'space';

function readStored(): string | null {
  try {
    return localStorage.getItem(SPACE_KEY) || null;
  } catch {
    return null;
  }
}

/**
 * The space the user works in: his own ('Persönlich', `current: null`) or a team (its id). The
 * own-shorts list, the create form, the export and the statistics follow it. `teams` is null until
 * the switcher has loaded them (logged in only).
 */
export const space = proxy({
  current: readStored(),
  teams: null as SpaceTeam[] | null,
});

/** Chooses a space (null: the own one); kept in localStorage. */
export function chooseSpace(team: string | null): void {
  space.current = team;
  try {
    if (team) localStorage.setItem(SPACE_KEY, team);
    else localStorage.removeItem(SPACE_KEY);
  } catch {
    // not kept: private mode
  }
}

/** The team of the chosen space, when the caller (still) belongs to it. */
export function currentTeam(
  s: { readonly current: string | null; readonly teams: readonly SpaceTeam[] | null } = space,
): SpaceTeam | null {
  return (s.current && s.teams?.find((t) => t.id === s.current)) || null;
}

/** Whether the caller may create, edit and delete in a space (his own: always). */
export function mayWriteIn(team: SpaceTeam | null): boolean {
  return team === null || roleMayWrite(team.role);
}

/** The team id a new short is created in: the chosen team if the caller may write there. */
export function createTeamId(): string | null {
  const team = currentTeam();
  return team && roleMayWrite(team.role) ? team.id : null;
}

/** Sets the loaded teams; a chosen team the caller no longer belongs to falls back to his own space. */
export function setTeams(teams: readonly SpaceTeam[]): void {
  space.teams = teams.map(({ id, name, role }) => ({ id, name, role }));
  if (space.current && !teams.some((t) => t.id === space.current)) chooseSpace(null);
}

/** Logout: nobody's teams. */
export function clearTeams(): void {
  space.teams = null;
}
