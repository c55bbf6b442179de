import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TeamDto } from '../../api/teams';
import type { WebhookDeliveryDto, WebhookDto } from '../../api/webhooks';
import TeamsPage from '../../pages/TeamsPage';
import WebhooksPage from '../../pages/WebhooksPage';
import { auth } from '../../state/auth';
import { space } from '../../state/space';
import { resetAfterEach, stubApi, toastTexts } from '../../test-fixtures';
import { pageAnswer, renderAt } from '../../test-utils';

resetAfterEach();

const TEAM: TeamDto = {
  id: 't-1',
  name: 'Marketing',
  createdAt: '2026-01-01T00:00:00.000Z',
  role: 'owner',
};
const VIEWED: TeamDto = { ...TEAM, id: 't-2', name: 'Vertrieb', role: 'viewer' };

const HOOK: WebhookDto = {
  id: 'w-1',
  url: 'https://crm.example/hooks',
  events: ['short.created', 'short.followed'],
  team: null,
  enabled: true,
  disabledReason: null,
  createdAt: '2026-11-01T10:00:00.000Z',
};
const TEAM_HOOK: WebhookDto = {
  ...HOOK,
  id: 'w-2',
  url: 'https://chat.example/team',
  events: ['short.health_changed'],
  team: { id: 't-1', name: 'Marketing' },
};

const delivery = (over: Partial<WebhookDeliveryDto>): WebhookDeliveryDto => ({
  id: 'd-1',
  eventId: 'msg_1',
  type: 'short.created',
  status: 'delivered',
  attempts: 1,
  lastStatusCode: 200,
  lastError: null,
  durationMs: 42,
  createdAt: '2026-11-02T10:00:00.000Z',
  deliveredAt: '2026-11-02T10:00:01.000Z',
  nextAttemptAt: null,
  ...over,
});

const page = pageAnswer;

beforeEach(() => {
  space.current = null;
  space.teams = null;
  auth.status = 'authenticated';
  auth.user = {
    id: 'u-me',
    username: 'ich',
    email: null,
    imageUrl: null,
    activated: true,
    createdDate: '2026-01-01T00:00:00.000Z',
    authorities: ['ROLE_USER'],
  } as unknown as typeof auth.user;
});

const renderPage = () => renderAt('/account/webhooks', '/account/webhooks', <WebhooksPage />);

describe('the webhooks page', () => {
  it('says Noch keine Webhooks; creates one (at least one event, a team) and shows the secret once', async () => {
    let hooks: WebhookDto[] = [];
    const calls = stubApi({
      'GET /api/webhooks': () => ({ status: 200, body: hooks }),
      'GET /api/teams': { status: 200, body: [TEAM, VIEWED] },
      'POST /api/webhooks': () => {
        hooks = [{ ...HOOK, events: ['short.created'], team: { id: 't-1', name: 'Marketing' } }];
        return { status: 201, body: { ...hooks[0], secret: 'whsec_c2VjcmV0' } };
      },
    });
    renderPage();
    expect(await screen.findByText('Noch keine Webhooks')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Neuer Webhook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Neuen Webhook anlegen' });
    fireEvent.change(within(dialog).getByLabelText('URL'), {
      target: { value: ' https://crm.example/hooks ' },
    });
    // No event chosen: nothing is sent.
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Anlegen' }));
    });
    expect(within(dialog).getByTestId('webhook-form-error')).toHaveTextContent(
      'Wähle mindestens ein Ereignis.',
    );
    expect(calls.some((c) => c.call === 'POST /api/webhooks')).toBe(false);
    fireEvent.click(within(dialog).getByLabelText(/Short erstellt/));
    // Only teams where the user may write are offered.
    await waitFor(() => expect(space.teams).toHaveLength(2));
    const select = within(dialog).getByLabelText('Team (optional)');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Persönlich', 'Marketing']);
    fireEvent.change(select, { target: { value: 't-1' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Anlegen' }));
    });
    expect(calls.find((c) => c.call === 'POST /api/webhooks')?.json).toEqual({
      url: 'https://crm.example/hooks',
      events: ['short.created'],
      team: 't-1',
    });
    expect(toastTexts()).toContain('Der Webhook wurde angelegt.');
    expect(screen.getByRole('dialog', { name: 'Dein Webhook-Secret' })).toBeInTheDocument();
    expect(screen.getByTestId('webhook-secret')).toHaveValue('whsec_c2VjcmV0');
    expect(screen.getByTestId('webhook-once-warning')).toHaveTextContent(
      'Es wird nicht noch einmal angezeigt.',
    );
    const verify = screen.getByTestId('webhook-verify');
    for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature'])
      expect(within(verify).getByText(header)).toBeInTheDocument();
    fireEvent.click(screen.getAllByRole('button', { name: 'Schließen' }).at(-1)!);
    await waitFor(() => expect(screen.queryByTestId('webhook-secret')).toBeNull());
    const row = await screen.findByTestId('webhook-row');
    expect(row).toHaveTextContent('https://crm.example/hooks');
    expect(row).toHaveTextContent('Marketing');
    expect(row).not.toHaveTextContent('whsec_');
    // Opened again: a new form, the secret is gone for good.
    fireEvent.click(screen.getByRole('button', { name: 'Neuer Webhook' }));
    const again = await screen.findByRole('dialog', { name: 'Neuen Webhook anlegen' });
    expect(within(again).getByLabelText('URL')).toHaveValue('');
    expect(screen.queryByText('whsec_c2VjcmV0')).toBeNull();
  });

  it('tells a refused address by its errorKey', async () => {
    stubApi({
      'GET /api/webhooks': { status: 200, body: [] },
      'GET /api/teams': { status: 200, body: [] },
      'POST /api/webhooks': {
        status: 400,
        body: {
          status: 400,
          detail: 'Webhook URL is not allowed',
          errorKey: 'webhook_url_invalid',
        },
      },
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Neuer Webhook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Neuen Webhook anlegen' });
    fireEvent.change(within(dialog).getByLabelText('URL'), {
      target: { value: 'http://10.0.0.1/' },
    });
    fireEvent.click(within(dialog).getByLabelText(/Short gelöscht/));
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Anlegen' }));
    });
    const text = 'Die Webhook-Adresse muss eine öffentliche http(s)-Adresse sein.';
    expect(within(dialog).getByTestId('webhook-form-error')).toHaveTextContent(text);
    expect(toastTexts()).toContain(text);
    expect(screen.queryByTestId('webhook-secret')).toBeNull();
  });

  it('lists a webhook with its events, team and state; a disabled one says why', async () => {
    stubApi({
      'GET /api/webhooks': {
        status: 200,
        body: [
          HOOK,
          { ...TEAM_HOOK, enabled: false, disabledReason: 'Failing for 3 days (HTTP 500)' },
        ],
      },
      'GET /api/teams': { status: 200, body: [TEAM] },
    });
    renderPage();
    const rows = await screen.findAllByTestId('webhook-row');
    expect(rows).toHaveLength(2);
    expect(
      within(rows[0])
        .getAllByText(/^short\./)
        .map((b) => b.textContent),
    ).toEqual(['short.created', 'short.followed']);
    expect(rows[0]).toHaveTextContent('Persönlich');
    expect(within(rows[0]).getByTestId('webhook-state')).toHaveTextContent('Aktiv');
    expect(within(rows[1]).getByTestId('webhook-state')).toHaveTextContent('Deaktiviert');
    expect(within(rows[1]).getByTestId('webhook-disabled-reason')).toHaveTextContent(
      'Grund: Failing for 3 days (HTTP 500)',
    );
    expect(rows[1]).toHaveTextContent('Marketing');
    expect(within(rows[1]).getByRole('button', { name: /aktivieren$/ })).toHaveTextContent(
      'Aktivieren',
    );
  });

  it('sends a test event (toast), and says when that fails', async () => {
    let fail = false;
    const calls = stubApi({
      'GET /api/webhooks': { status: 200, body: [HOOK] },
      'GET /api/teams': { status: 200, body: [] },
      'POST /api/webhooks/w-1/test': () =>
        fail
          ? { status: 403, body: { status: 403, detail: 'no', errorKey: 'team_forbidden' } }
          : { status: 202, body: {} },
    });
    renderPage();
    const test = await screen.findByRole('button', {
      name: 'Test senden an https://crm.example/hooks',
    });
    expect(test).toHaveTextContent('Test senden');
    await act(async () => {
      fireEvent.click(test);
    });
    expect(calls.filter((c) => c.call === 'POST /api/webhooks/w-1/test')).toHaveLength(1);
    expect(toastTexts()).toContain('Das Test-Ereignis wurde gesendet.');
    fail = true;
    await act(async () => {
      fireEvent.click(test);
    });
    expect(toastTexts()).toContain('In diesem Team darfst du das nicht.');
  });

  it('disables and enables a webhook', async () => {
    let hook = HOOK;
    const calls = stubApi({
      'GET /api/webhooks': () => ({ status: 200, body: [hook] }),
      'GET /api/teams': { status: 200, body: [] },
      'PATCH /api/webhooks/w-1': () => {
        hook = { ...hook, enabled: !hook.enabled };
        return { status: 200, body: hook };
      },
    });
    renderPage();
    const off = await screen.findByRole('button', {
      name: 'https://crm.example/hooks deaktivieren',
    });
    await act(async () => {
      fireEvent.click(off);
    });
    expect(calls.find((c) => c.call === 'PATCH /api/webhooks/w-1')?.json).toEqual({
      enabled: false,
    });
    expect(toastTexts()).toContain('Der Webhook ist jetzt deaktiviert.');
    await waitFor(() =>
      expect(screen.getByTestId('webhook-state')).toHaveTextContent('Deaktiviert'),
    );
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'https://crm.example/hooks aktivieren' }));
    });
    expect(calls.filter((c) => c.call === 'PATCH /api/webhooks/w-1').at(-1)?.json).toEqual({
      enabled: true,
    });
    expect(toastTexts()).toContain('Der Webhook ist jetzt aktiv.');
    await waitFor(() => expect(screen.getByTestId('webhook-state')).toHaveTextContent('Aktiv'));
  });

  it('edits the URL and the events', async () => {
    const calls = stubApi({
      'GET /api/webhooks': { status: 200, body: [HOOK] },
      'GET /api/teams': { status: 200, body: [] },
      'PATCH /api/webhooks/w-1': { status: 200, body: HOOK },
    });
    renderPage();
    fireEvent.click(
      await screen.findByRole('button', { name: 'https://crm.example/hooks bearbeiten' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Webhook bearbeiten' });
    expect(within(dialog).getByLabelText('URL')).toHaveValue('https://crm.example/hooks');
    expect(within(dialog).getByLabelText(/Short besucht/)).toBeChecked();
    expect(within(dialog).queryByLabelText('Team (optional)')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('URL'), {
      target: { value: 'https://crm.example/v2' },
    });
    fireEvent.click(within(dialog).getByLabelText(/Short besucht/));
    fireEvent.click(within(dialog).getByLabelText(/Domain bestätigt/));
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    });
    expect(calls.find((c) => c.call === 'PATCH /api/webhooks/w-1')?.json).toEqual({
      url: 'https://crm.example/v2',
      events: ['short.created', 'domain.verified'],
    });
    expect(toastTexts()).toContain('Der Webhook wurde gespeichert.');
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Webhook bearbeiten' })).toBeNull(),
    );
  });

  it('deletes a webhook after the confirm question', async () => {
    let hooks = [HOOK];
    const calls = stubApi({
      'GET /api/webhooks': () => ({ status: 200, body: hooks }),
      'GET /api/teams': { status: 200, body: [] },
      'DELETE /api/webhooks/w-1': () => {
        hooks = [];
        return { status: 204 };
      },
    });
    renderPage();
    fireEvent.click(
      await screen.findByRole('button', { name: 'https://crm.example/hooks löschen' }),
    );
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    const dialog = await screen.findByRole('dialog', { name: 'Webhook löschen' });
    expect(dialog).toHaveTextContent('https://crm.example/hooks');
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Endgültig löschen' }));
    });
    expect(calls.some((c) => c.call === 'DELETE /api/webhooks/w-1')).toBe(true);
    expect(toastTexts()).toContain('Der Webhook wurde gelöscht.');
    expect(await screen.findByText('Noch keine Webhooks')).toBeInTheDocument();
  });

  it('says when the list cannot be loaded', async () => {
    stubApi({
      'GET /api/webhooks': { status: 500, body: { status: 500, errorKey: 'internal_error' } },
      'GET /api/teams': { status: 200, body: [] },
    });
    renderPage();
    expect(await screen.findByTestId('webhooks-error')).toHaveTextContent(
      'Die Webhooks konnten nicht geladen werden.',
    );
  });
});

describe('the delivery log', () => {
  it('shows each delivery with its state badge; Erneut senden retries and reloads', async () => {
    let deliveries = [
      delivery({}),
      delivery({
        id: 'd-2',
        type: 'short.followed',
        status: 'failed',
        attempts: 6,
        lastStatusCode: 500,
        lastError: 'HTTP 500',
        durationMs: 120,
        deliveredAt: null,
      }),
      delivery({
        id: 'd-3',
        type: 'webhook.test',
        status: 'pending',
        attempts: 0,
        lastStatusCode: null,
        durationMs: null,
        deliveredAt: null,
      }),
    ];
    const calls = stubApi({
      'GET /api/webhooks': { status: 200, body: [HOOK] },
      'GET /api/teams': { status: 200, body: [] },
      'GET /api/webhooks/w-1/deliveries': () => page(deliveries),
      'POST /api/webhooks/w-1/deliveries/d-2/retry': () => {
        deliveries = deliveries.map((d) =>
          d.id === 'd-2' ? { ...d, status: 'delivered', attempts: 7, lastStatusCode: 204 } : d,
        );
        return { status: 202, body: {} };
      },
    });
    renderPage();
    fireEvent.click(
      await screen.findByRole('button', { name: 'Zustellungen an https://crm.example/hooks' }),
    );
    const log = await screen.findByRole('dialog', {
      name: 'Zustellungen an https://crm.example/hooks',
    });
    const rows = await within(log).findAllByTestId('delivery-row');
    expect(rows.map((r) => within(r).getByTestId('delivery-status').textContent)).toEqual([
      'Zugestellt',
      'Fehlgeschlagen',
      'Ausstehend',
    ]);
    expect(within(rows[0]).getByTestId('delivery-type')).toHaveTextContent('short.created');
    expect(rows[0]).toHaveTextContent('42 ms');
    expect(within(rows[1]).getByTestId('delivery-attempts')).toHaveTextContent('6');
    expect(within(rows[1]).getByTestId('delivery-code')).toHaveTextContent('500');
    expect(within(rows[1]).getByTestId('delivery-error')).toHaveTextContent('HTTP 500');
    expect(within(rows[2]).getByTestId('delivery-code')).toHaveTextContent('–');
    const listed = calls.filter((c) => c.call === 'GET /api/webhooks/w-1/deliveries').length;
    const retry = within(rows[1]).getByTestId('delivery-retry');
    expect(retry).toHaveTextContent('Erneut senden');
    await act(async () => {
      fireEvent.click(retry);
    });
    expect(calls.some((c) => c.call === 'POST /api/webhooks/w-1/deliveries/d-2/retry')).toBe(true);
    expect(toastTexts()).toContain('Die Zustellung wurde erneut gesendet.');
    await waitFor(() =>
      expect(
        calls.filter((c) => c.call === 'GET /api/webhooks/w-1/deliveries').length,
      ).toBeGreaterThan(listed),
    );
    await waitFor(() =>
      expect(
        within(log)
          .getAllByTestId('delivery-status')
          .map((b) => b.textContent),
      ).toEqual(['Zugestellt', 'Zugestellt', 'Ausstehend']),
    );
  });

  it('says Noch keine Zustellungen, and a failed retry by its errorKey', async () => {
    stubApi({
      'GET /api/webhooks': { status: 200, body: [HOOK] },
      'GET /api/teams': { status: 200, body: [] },
      'GET /api/webhooks/w-1/deliveries': page([]),
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: /^Zustellungen an / }));
    expect(await screen.findByText('Noch keine Zustellungen')).toBeInTheDocument();
  });

  it('pages through the log', async () => {
    const urls: string[] = [];
    stubApi((call) => {
      if (call === 'GET /api/webhooks') return { status: 200, body: [HOOK] };
      if (call === 'GET /api/teams') return { status: 200, body: [] };
      return { status: 404, body: {} };
    });
    const inner = globalThis.fetch;
    globalThis.fetch = ((req: Request) => {
      urls.push(req.url);
      const u = new URL(req.url);
      if (u.pathname === '/api/webhooks/w-1/deliveries') {
        const n = Number(u.searchParams.get('page'));
        const body = {
          ...(page([delivery({ id: `d-p${n}` })]).body as object),
          number: n,
          totalPages: 2,
          totalElements: 21,
        };
        return Promise.resolve(
          new Response(JSON.stringify(body), {
            status: 200,
            headers: { 'Content-Type': 'application/json' },
          }),
        );
      }
      return inner(req);
    }) as typeof fetch;
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: /^Zustellungen an / }));
    expect(await screen.findByTestId('deliveries-page')).toHaveTextContent(/1.*2/);
    expect(urls.some((u) => u.includes('/deliveries?page=0&size=20'))).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Nächste Seite' }));
    await waitFor(() =>
      expect(urls.some((u) => u.includes('/deliveries?page=1&size=20'))).toBe(true),
    );
  });
});

describe("a team's webhooks on the team page", () => {
  it('an owner sees only the team’s webhooks and creates new ones in the team', async () => {
    let hooks = [HOOK, TEAM_HOOK];
    const calls = stubApi({
      'GET /api/teams': { status: 200, body: [TEAM, VIEWED] },
      'GET /api/teams/t-1/members': { status: 200, body: [] },
      'GET /api/webhooks': () => ({ status: 200, body: hooks }),
      'POST /api/webhooks': () => {
        const made = { ...TEAM_HOOK, id: 'w-3', url: 'https://team.example/in' };
        hooks = [...hooks, made];
        return { status: 201, body: { ...made, secret: 'whsec_dGVhbQ' } };
      },
    });
    renderAt('/teams/t-1', '/teams/:id', <TeamsPage />);
    const section = await screen.findByTestId('team-webhooks');
    expect(
      within(section).getByRole('heading', { name: 'Webhooks', level: 2 }),
    ).toBeInTheDocument();
    const rows = await within(section).findAllByTestId('webhook-row');
    expect(rows.map((r) => r.getAttribute('data-url'))).toEqual(['https://chat.example/team']);
    fireEvent.click(within(section).getByRole('button', { name: 'Neuer Webhook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Neuen Webhook anlegen' });
    expect(within(dialog).getByTestId('webhook-team-fixed')).toHaveTextContent(
      'Der Webhook gehört zum Team Marketing.',
    );
    expect(within(dialog).queryByLabelText('Team (optional)')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('URL'), {
      target: { value: 'https://team.example/in' },
    });
    fireEvent.click(within(dialog).getByLabelText(/Link-Zustand geändert/));
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Anlegen' }));
    });
    expect(calls.find((c) => c.call === 'POST /api/webhooks')?.json).toEqual({
      url: 'https://team.example/in',
      events: ['short.health_changed'],
      team: 't-1',
    });
    expect(screen.getByTestId('webhook-secret')).toHaveValue('whsec_dGVhbQ');
    fireEvent.click(screen.getAllByRole('button', { name: 'Schließen' }).at(-1)!);
    await waitFor(() => expect(within(section).getAllByTestId('webhook-row')).toHaveLength(2));
  });

  it('a viewer sees no webhooks section', async () => {
    stubApi({
      'GET /api/teams': { status: 200, body: [TEAM, VIEWED] },
      'GET /api/teams/t-2/members': { status: 200, body: [] },
      'GET /api/webhooks': { status: 200, body: [] },
    });
    renderAt('/teams/t-2', '/teams/:id', <TeamsPage />);
    expect(await screen.findByTestId('team-page')).toBeInTheDocument();
    expect(screen.queryByTestId('team-webhooks')).toBeNull();
  });
});

describe('on a phone', () => {
  it('shows the webhooks and the delivery log as cards, with every action', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: false,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    const calls = stubApi({
      'GET /api/webhooks': { status: 200, body: [HOOK] },
      'GET /api/teams': { status: 200, body: [] },
      'GET /api/webhooks/w-1/deliveries': page([
        delivery({ status: 'failed', lastError: 'timeout' }),
      ]),
      'POST /api/webhooks/w-1/deliveries/d-1/retry': { status: 202, body: {} },
    });
    renderPage();
    expect(await screen.findByTestId('webhooks-cards')).toBeInTheDocument();
    expect(screen.queryByTestId('webhooks-table')).toBeNull();
    const card = screen.getByTestId('webhook-row');
    for (const name of ['Zustellungen', 'Test senden', 'Deaktivieren', 'Bearbeiten', 'Löschen'])
      expect(within(card).getByText(name)).toBeInTheDocument();
    fireEvent.click(within(card).getByText('Zustellungen'));
    const log = await screen.findByTestId('deliveries-cards');
    expect(within(log).getByTestId('delivery-status')).toHaveTextContent('Fehlgeschlagen');
    expect(within(log).getByTestId('delivery-error')).toHaveTextContent('timeout');
    await act(async () => {
      fireEvent.click(within(log).getByText('Erneut senden'));
    });
    expect(calls.some((c) => c.call === 'POST /api/webhooks/w-1/deliveries/d-1/retry')).toBe(true);
    expect(toastTexts()).toContain('Die Zustellung wurde erneut gesendet.');
  });
});
