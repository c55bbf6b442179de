import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiKeySummaryDto, TeamDto, TeamMemberDto } from '../../api/teams';
import ApiKeysPage from '../../pages/ApiKeysPage';
import InvitePage from '../../pages/InvitePage';
import ShortsPage from '../../pages/ShortsPage';
import TeamsPage from '../../pages/TeamsPage';
import { auth } from '../../state/auth';
import { chooseSpace, space, SPACE_KEY } from '../../state/space';
import { resetAfterEach, shortFixture, stubApi, toastTexts } from '../../test-fixtures';
import { pageAnswer, recordUrls, renderAt, renderWithQueries } from '../../test-utils';
import { AddDomain } from '../account/domains/AddDomain';
import { CreateForm } from '../CreateForm';
import SpaceSwitcher from './SpaceSwitcher';

resetAfterEach();

const ME = { id: 'u-me', username: 'ich', imageUrl: null };
const OTHER = { id: 'u-bea', username: 'bea', imageUrl: null };
const TEAM: TeamDto = {
  id: 't-1',
  name: 'Marketing',
  createdAt: '2026-01-01T00:00:00.000Z',
  role: 'owner',
};
const VIEWED: TeamDto = { ...TEAM, id: 't-2', name: 'Vertrieb', role: 'viewer' };

beforeEach(() => {
  localStorage.removeItem(SPACE_KEY);
  space.current = null;
  space.teams = null;
  auth.status = 'authenticated';
  auth.user = {
    id: ME.id,
    username: ME.username,
    email: null,
    imageUrl: null,
    activated: true,
    createdDate: '2026-01-01T00:00:00.000Z',
    authorities: ['ROLE_USER'],
  } as unknown as typeof auth.user;
});
afterEach(() => {
  localStorage.removeItem(SPACE_KEY);
});

const page = pageAnswer;

describe('the space switcher', () => {
  it('offers Persönlich and every team with its role; the choice is kept and goes into the list URL', async () => {
    stubApi({ 'GET /api/teams': { status: 200, body: [TEAM, VIEWED] } });
    const { mem } = renderAt('/shorts', '/shorts', <SpaceSwitcher />);
    const toggle = screen.getByRole('button', { name: /Bereich wählen: Persönlich/ });
    await waitFor(() => expect(space.teams).toHaveLength(2));
    fireEvent.click(toggle);
    const options = await screen.findAllByTestId('space-option');
    expect(options.map((o) => o.textContent)).toEqual([
      'Persönlich',
      'Marketing Besitzer',
      'Vertrieb Betrachter',
    ]);
    fireEvent.click(options[2]);
    expect(space.current).toBe('t-2');
    expect(localStorage.getItem(SPACE_KEY)).toBe('t-2');
    expect(mem.history.at(-1)).toBe('/shorts?team=t-2');
    await waitFor(() => expect(screen.getByTestId('space-current')).toHaveTextContent('Vertrieb'));
  });

  it('falls back to the own space when the kept team is no longer the caller’s', async () => {
    chooseSpace('t-gone');
    stubApi({ 'GET /api/teams': { status: 200, body: [TEAM] } });
    renderAt('/', '/', <SpaceSwitcher />);
    await waitFor(() => expect(space.teams).toHaveLength(1));
    expect(space.current).toBeNull();
    expect(localStorage.getItem(SPACE_KEY)).toBeNull();
  });
});

describe('the shorts list in a team space', () => {
  it('a viewer sees the team’s shorts without create, edit, move or delete', async () => {
    space.teams = [VIEWED];
    stubApi({ 'GET /api/code': page([shortFixture({ code: 'team01' })]) });
    const urls = recordUrls();
    renderAt('/shorts?team=t-2', '/shorts', <ShortsPage />);
    expect(await screen.findByTestId('short-row')).toHaveAttribute('data-code', 'team01');
    expect(urls.some((u) => u.includes('/api/code?') && u.includes('team=t-2'))).toBe(true);
    expect(space.current).toBe('t-2');
    expect(screen.getByTestId('shorts-read-only')).toHaveTextContent('Betrachter');
    expect(screen.queryByTestId('new-short')).toBeNull();
    expect(screen.queryByRole('button', { name: /bearbeiten/i })).toBeNull();
    expect(screen.queryByRole('button', { name: /löschen/i })).toBeNull();
    expect(screen.queryByRole('button', { name: /verschieben/i })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Importieren' })).toBeNull();
    expect(screen.getByText('Exportieren (CSV)').closest('a')).toHaveAttribute(
      'href',
      '/api/code/export?format=csv&team=t-2',
    );
  });

  it('in the own space a short moves into a team where the user may write', async () => {
    space.teams = [TEAM, VIEWED];
    const short = shortFixture({ code: 'mine01' });
    const calls = stubApi({
      'GET /api/code': page([short]),
      [`PATCH /api/code/${short.id}`]: { status: 200, body: short },
    });
    renderAt('/shorts', '/shorts', <ShortsPage />);
    await screen.findByTestId('short-row');
    expect(screen.getByTestId('new-short')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'mine01 verschieben' }));
    const dialog = await screen.findByRole('dialog', { name: 'Verschieben nach …' });
    // Only the teams where the user is owner or editor.
    expect(
      within(dialog)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Marketing']);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Verschieben' }));
    });
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.json).toEqual({ team: 't-1' });
    expect(toastTexts()).toContain('Der Short wurde nach Marketing verschoben.');
  });
});

describe('the teams page', () => {
  it('says Noch keine Teams, creates one and opens it', async () => {
    let teams: TeamDto[] = [];
    const calls = stubApi({
      'GET /api/teams': () => ({ status: 200, body: teams }),
      'POST /api/teams': () => {
        teams = [TEAM];
        return { status: 201, body: TEAM };
      },
    });
    const { mem } = renderAt('/teams', '/teams', <TeamsPage />);
    expect(await screen.findByText('Noch keine Teams')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Name des neuen Teams'), {
      target: { value: ' Marketing ' },
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Team erstellen' }));
    });
    expect(calls.find((c) => c.call === 'POST /api/teams')?.json).toEqual({ name: 'Marketing' });
    expect(toastTexts()).toContain('Das Team Marketing wurde erstellt.');
    await waitFor(() => expect(mem.history.at(-1)).toBe('/teams/t-1'));
  });

  const members: TeamMemberDto[] = [
    { user: ME, role: 'owner', joinedAt: '2026-01-01T00:00:00.000Z' },
    { user: OTHER, role: 'viewer', joinedAt: '2026-01-02T00:00:00.000Z' },
  ];

  it('an owner changes roles, creates an invite link (with its expiry) and copies it', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const calls = stubApi({
      'GET /api/teams': { status: 200, body: [TEAM] },
      'GET /api/teams/t-1/members': { status: 200, body: members },
      'PATCH /api/teams/t-1/members/u-bea': { status: 204 },
      'POST /api/teams/t-1/invites': {
        status: 201,
        body: {
          token: 'tok',
          url: 'http://localhost:8080/invite/tok',
          expiresAt: '2026-01-08T00:00:00.000Z',
        },
      },
    });
    renderAt('/teams/t-1', '/teams/:id', <TeamsPage />);
    const bea = await screen.findByLabelText('Rolle von bea');
    await act(async () => {
      fireEvent.change(bea, { target: { value: 'editor' } });
    });
    expect(calls.find((c) => c.method === 'PATCH')?.json).toEqual({ role: 'editor' });
    expect(toastTexts()).toContain('bea ist jetzt Bearbeiter.');

    fireEvent.change(screen.getByLabelText('Rolle der Eingeladenen'), {
      target: { value: 'viewer' },
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Einladungslink erstellen' }));
    });
    expect(calls.find((c) => c.call === 'POST /api/teams/t-1/invites')?.json).toEqual({
      role: 'viewer',
    });
    expect(screen.getByTestId('invite-url')).toHaveValue('http://localhost:8080/invite/tok');
    expect(screen.getByTestId('invite-expires')).toHaveTextContent(/^Gültig bis /);
    await act(async () => {
      fireEvent.click(screen.getByTestId('invite-copy'));
    });
    expect(writeText).toHaveBeenCalledWith('http://localhost:8080/invite/tok');
    expect(screen.getByTestId('invite-copy')).toHaveTextContent('Kopiert!');
  });

  it('deleting a team that still has shorts says why (team_not_empty)', async () => {
    stubApi({
      'GET /api/teams': { status: 200, body: [TEAM] },
      'GET /api/teams/t-1/members': { status: 200, body: members },
      'DELETE /api/teams/t-1': {
        status: 409,
        body: { status: 409, detail: 'Team not empty', errorKey: 'team_not_empty' },
      },
    });
    renderAt('/teams/t-1', '/teams/:id', <TeamsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Team löschen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Team löschen' });
    expect(dialog).toHaveTextContent('Möchtest du das Team Marketing wirklich löschen?');
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Endgültig löschen' }));
    });
    expect(toastTexts()).toContain(
      'Das Team hat noch Shorts oder Domains. Verschiebe oder lösche sie zuerst.',
    );
  });

  it('a viewer sees the members without role selects and can leave', async () => {
    let teams = [VIEWED];
    const calls = stubApi({
      'GET /api/teams': () => ({ status: 200, body: teams }),
      'GET /api/teams/t-2/members': {
        status: 200,
        body: [
          { ...members[0], user: OTHER, role: 'owner' },
          { ...members[1], user: ME },
        ],
      },
      'DELETE /api/teams/t-2/members/u-me': () => {
        teams = [];
        return { status: 204 };
      },
    });
    chooseSpace('t-2');
    const { mem } = renderAt('/teams/t-2', '/teams/:id', <TeamsPage />);
    expect(await screen.findAllByTestId('member')).toHaveLength(2);
    expect(screen.queryByTestId('member-role')).toBeNull();
    expect(screen.queryByTestId('invite-card')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Team löschen' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Team verlassen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Team verlassen' });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Team verlassen' }));
    });
    expect(calls.some((c) => c.call === 'DELETE /api/teams/t-2/members/u-me')).toBe(true);
    expect(toastTexts()).toContain('Du hast das Team verlassen.');
    expect(space.current).toBeNull();
    await waitFor(() => expect(mem.history.at(-1)).toBe('/teams'));
  });
});

describe('the invite page', () => {
  it('Team beitreten joins and opens the team in its space', async () => {
    const calls = stubApi({
      'POST /api/invites/tok': { status: 200, body: VIEWED },
      'GET /api/teams': { status: 200, body: [VIEWED] },
    });
    const { mem } = renderAt('/invite/tok', '/invite/:token', <InvitePage />);
    expect(screen.getByRole('heading', { name: 'Team beitreten' })).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Team beitreten' }));
    });
    expect(calls.map((c) => c.call)).toContain('POST /api/invites/tok');
    expect(toastTexts()).toContain('Du bist jetzt im Team Vertrieb.');
    expect(space.current).toBe('t-2');
    await waitFor(() => expect(mem.history.at(-1)).toBe('/teams/t-2'));
  });

  it('an invalid invite says so (invite_invalid)', async () => {
    stubApi({
      'POST /api/invites/alt': {
        status: 404,
        body: { status: 404, detail: 'Invite invalid', errorKey: 'invite_invalid' },
      },
    });
    renderAt('/invite/alt', '/invite/:token', <InvitePage />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Team beitreten' }));
    });
    expect(screen.getByTestId('invite-invalid')).toHaveTextContent(
      'Diese Einladung ist ungültig, abgelaufen oder wurde schon benutzt.',
    );
    expect(screen.queryByRole('button', { name: 'Team beitreten' })).toBeNull();
  });
});

describe('the API keys page', () => {
  const KEY: ApiKeySummaryDto = {
    id: 'k-1',
    name: 'CI',
    prefix: 'us_ab12',
    scopes: ['shorts:read', 'statistics:read'],
    team: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    expiresAt: null,
    lastUsedAt: null,
  };

  it('says Noch keine API-Keys; creates a key and shows it once, with a warning', async () => {
    let keys: ApiKeySummaryDto[] = [];
    const calls = stubApi({
      'GET /api/self/apikeys': () => ({ status: 200, body: keys }),
      'GET /api/teams': { status: 200, body: [TEAM, VIEWED] },
      'POST /api/self/apikeys': () => {
        keys = [{ ...KEY, name: 'Bot', scopes: ['shorts:read', 'shorts:write'] }];
        return { status: 201, body: { ...keys[0], key: 'us_ab12_secret' } };
      },
    });
    renderAt('/account/keys', '/account/keys', <ApiKeysPage />);
    expect(await screen.findByText('Noch keine API-Keys')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('key-new'));
    const dialog = await screen.findByRole('dialog', { name: 'Neuen API-Key erstellen' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Bot' } });
    fireEvent.click(within(dialog).getByLabelText(/Shorts erstellen und ändern/));
    // A viewer's team key may only read.
    await waitFor(() => expect(space.teams).toHaveLength(2));
    fireEvent.change(within(dialog).getByLabelText('Team (optional)'), {
      target: { value: 't-2' },
    });
    expect(within(dialog).getByLabelText(/Shorts erstellen und ändern/)).toBeDisabled();
    fireEvent.change(within(dialog).getByLabelText('Team (optional)'), {
      target: { value: '' },
    });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Erstellen' }));
    });
    expect(calls.find((c) => c.call === 'POST /api/self/apikeys')?.json).toEqual({
      name: 'Bot',
      scopes: ['shorts:read', 'shorts:write'],
    });
    expect(screen.getByTestId('key-value')).toHaveValue('us_ab12_secret');
    expect(screen.getByTestId('key-once-warning')).toHaveTextContent(
      'Er wird nicht noch einmal angezeigt.',
    );
    fireEvent.click(screen.getAllByRole('button', { name: 'Schließen' }).at(-1)!);
    await waitFor(() => expect(screen.queryByTestId('key-value')).toBeNull());
    const row = await screen.findByTestId('key-row');
    expect(row).toHaveTextContent('Bot');
    expect(row).not.toHaveTextContent('us_ab12_secret');
    expect(within(row).getByTestId('key-last-used')).toHaveTextContent('nie');
    expect(
      within(row)
        .getAllByText(/^shorts:/)
        .map((b) => b.textContent),
    ).toEqual(['shorts:read', 'shorts:write']);
  });

  it('revokes a key after the confirm question', async () => {
    let keys = [KEY];
    const calls = stubApi({
      'GET /api/self/apikeys': () => ({ status: 200, body: keys }),
      'DELETE /api/self/apikeys/k-1': () => {
        keys = [];
        return { status: 204 };
      },
    });
    renderAt('/account/keys', '/account/keys', <ApiKeysPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'CI widerrufen' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    const dialog = await screen.findByRole('dialog', { name: 'API-Key widerrufen' });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Widerrufen' }));
    });
    expect(calls.some((c) => c.call === 'DELETE /api/self/apikeys/k-1')).toBe(true);
    expect(toastTexts()).toContain('Der API-Key wurde widerrufen.');
    expect(await screen.findByText('Noch keine API-Keys')).toBeInTheDocument();
  });
});

describe('a domain of a team', () => {
  it('is added into a team where the user may write (not where he only views)', async () => {
    space.teams = [TEAM, VIEWED];
    const calls = stubApi({
      'POST /api/domains': { status: 201, body: { host: 'team.example' } },
    });
    renderWithQueries(<AddDomain admin={false} />);
    const select = screen.getByLabelText('Gehört zu');
    expect([...select.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'Persönlich',
      'Marketing',
    ]);
    fireEvent.change(select, { target: { value: 't-1' } });
    fireEvent.change(screen.getByLabelText('Neue Domain'), { target: { value: 'team.example' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Domain hinzufügen' }));
    });
    expect(calls.find((c) => c.call === 'POST /api/domains')?.json).toEqual({
      host: 'team.example',
      team: 't-1',
    });
  });
});

describe('the create form in a team space', () => {
  async function create(): Promise<{ body: unknown; hint: string | null }> {
    const calls = stubApi({
      'POST /api/code': { status: 201, body: { code: 'neu1234' } },
      'GET /api/domains': { status: 200, body: [] },
    });
    renderAt('/', '/', <CreateForm />);
    fireEvent.change(screen.getByLabelText('URL', { exact: true }), {
      target: { value: 'https://example.com/team' },
    });
    const hint = screen.queryByTestId('create-team')?.textContent ?? null;
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Kürzen' }));
    });
    return { body: calls.find((c) => c.call === 'POST /api/code')?.json, hint };
  }

  it('sends the team the user may write to, and says so', async () => {
    space.teams = [TEAM, VIEWED];
    chooseSpace('t-1');
    const { body, hint } = await create();
    expect(body).toMatchObject({ url: 'https://example.com/team', team: 't-1' });
    expect(hint).toBe('Wird im Team Marketing erstellt.');
  });

  it("a viewer's team is not sent: the short is the user's own", async () => {
    space.teams = [TEAM, VIEWED];
    chooseSpace('t-2');
    const { body, hint } = await create();
    expect(body).toMatchObject({ url: 'https://example.com/team' });
    expect(body).not.toHaveProperty('team');
    expect(hint).toBeNull();
  });
});
