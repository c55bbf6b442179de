import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { Schemas } from '../api/client';
import { LAST_DOMAIN_KEY } from '../lib/domains';
import { auth } from '../state/auth';
import { cookies } from '../state/cookies';
import { resetAfterEach, stubApi, toastTexts } from '../test-fixtures';
import { renderWithQueries } from '../test-utils';
import { DomainsPanel } from './account/DomainsPanel';
import { ShareXPanel } from './account/ShareXPanel';
import { CreateForm } from './CreateForm';

// Registered before the reset, so that it runs after the reset has unmounted (last-registered first).
afterEach(() => {
  localStorage.clear();
  cookies.consent.services.design = false;
});
resetAfterEach();

const texts = toastTexts;

type Domain = Schemas['DomainDto'];
const ME = { id: '11111111-1111-4111-8111-111111111111', username: 'ich' };

function domain(host: string, over: Partial<Domain> = {}): Domain {
  return {
    id: `id-${host}`,
    host,
    owner: ME,
    team: null,
    verified: false,
    enabled: true,
    homeRedirect: null,
    notFoundRedirect: null,
    homePage: null,
    verification: {
      record: `_url-shorter.${host}`,
      value: `url-shorter-verify=tok-${host}`,
      token: `tok-${host}`,
      target: 'kurz.example',
      checkedAt: null,
      failingSince: null,
      reason: null,
    },
    createdAt: '2025-01-01T00:00:00.000Z',
    ...over,
  };
}

/** Types `host` as the new domain (shared for everybody if `shared`) and adds it. */
async function addDomain(host: string, shared = false): Promise<void> {
  fireEvent.change(screen.getByLabelText('Neue Domain'), { target: { value: host } });
  if (shared) fireEvent.click(screen.getByLabelText(/Für alle freigeben/));
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Domain hinzufügen' }));
  });
}

/** The create form of a logged-in user in a router that records where it goes. */
/** Opens the create form's 'Erweitert' group (it holds the domain), unless it is open. */
function openAdvanced(): void {
  const toggle = screen.getByRole('button', { name: /Erweitert/ });
  if (toggle.getAttribute('aria-expanded') !== 'true') fireEvent.click(toggle);
}

function renderCreateLoggedIn() {
  auth.status = 'authenticated';
  const mem = memoryLocation({ path: '/', record: true });
  render(
    <Router hook={mem.hook}>
      <CreateForm />
    </Router>,
  );
  openAdvanced();
  return mem;
}

describe('the Domains section', () => {
  it('lists the domains with their state; a pending one shows the TXT record from the API', async () => {
    stubApi({
      'GET /api/domains': {
        status: 200,
        body: [
          domain('neu.example'),
          domain('geteilt.example', { owner: null, verified: true }),
          domain('aus.example', {
            verified: true,
            enabled: false,
            verification: { ...domain('aus.example').verification, reason: 'dns_no_record' },
          }),
        ],
      },
    });
    renderWithQueries(<DomainsPanel userId={ME.id} admin={false} />);
    const items = await screen.findAllByTestId('domain-item');
    expect(items.map((i) => i.dataset.host)).toEqual([
      'neu.example',
      'geteilt.example',
      'aus.example',
    ]);
    const [pending, shared, disabled] = items;
    expect(within(pending).getByTestId('domain-state')).toHaveTextContent('ausstehend');
    expect(within(pending).getByLabelText('Name')).toHaveValue('_url-shorter.neu.example');
    expect(within(pending).getByLabelText('Wert')).toHaveValue(
      'url-shorter-verify=tok-neu.example',
    );
    expect(within(pending).getByText(/CNAME-Eintrag auf kurz\.example/)).toBeInTheDocument();
    expect(within(shared).getByTestId('domain-state')).toHaveTextContent('verifiziert');
    expect(within(shared).getByText('Geteilt')).toBeInTheDocument();
    // A shared domain is an admin's to change.
    expect(within(shared).queryByRole('button', { name: /löschen/ })).toBeNull();
    expect(within(disabled).getByTestId('domain-state')).toHaveTextContent('deaktiviert');
    expect(within(disabled).getByTestId('domain-reason')).toHaveTextContent(
      'Der TXT-Eintrag wurde nicht gefunden.',
    );
  });

  it('Jetzt prüfen says the outcome; a failed check names its reason', async () => {
    const d = domain('neu.example');
    const calls = stubApi({
      'GET /api/domains': { status: 200, body: [d] },
      'POST /api/domains/id-neu.example/verify': {
        status: 200,
        body: { ...d, verification: { ...d.verification, reason: 'dns_token_mismatch' } },
      },
    });
    renderWithQueries(<DomainsPanel userId={ME.id} admin={false} />);
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'neu.example jetzt prüfen' }));
    });
    await waitFor(() =>
      expect(texts()).toContain(
        'Die Domain neu.example ist noch nicht verifiziert. Der TXT-Eintrag enthält nicht den erwarteten Wert.',
      ),
    );
    expect(calls.map((c) => c.call)).toContain('POST /api/domains/id-neu.example/verify');
  });

  it('adds a domain (admins: a shared one) and says so; a refusal by its errorKey', async () => {
    let refuse = false;
    const calls = stubApi({
      'GET /api/domains': { status: 200, body: [] },
      'POST /api/domains': () =>
        refuse
          ? {
              status: 400,
              body: {
                status: 400,
                errorKey: 'validation_failed',
                fieldErrors: { host: 'invalid' },
                fieldErrorKeys: { host: 'domain_invalid' },
              },
            }
          : { status: 201, body: domain('go.example.com', { owner: null, verified: true }) },
    });
    renderWithQueries(<DomainsPanel userId={ME.id} admin />);
    expect(await screen.findByTestId('domains-empty')).toHaveTextContent(
      'Du hast noch keine Domains.',
    );
    await addDomain(' go.example.com ', true);
    await waitFor(() => expect(texts()).toContain('Die Domain go.example.com wurde hinzugefügt.'));
    expect(calls.find((c) => c.call === 'POST /api/domains')?.json).toEqual({
      host: 'go.example.com',
      shared: true,
    });
    refuse = true;
    await addDomain('x y');
    await waitFor(() =>
      expect(texts()).toContain(
        'Das ist kein gültiger Domainname (z. B. go.example.com, ohne https:// und Pfad).',
      ),
    );
  });

  it('the cap on domains and a redirect back at this service are said by their errorKeys', async () => {
    stubApi({
      'GET /api/domains': { status: 200, body: [] },
      'POST /api/domains': {
        status: 409,
        body: {
          status: 409,
          detail: 'Quota exceeded: at most 20 own domains per user',
          errorKey: 'quota_exceeded',
        },
      },
    });
    renderWithQueries(<DomainsPanel userId={ME.id} admin={false} />);
    await screen.findByTestId('domains-empty');
    await addDomain('more.example');
    await waitFor(() =>
      expect(texts()).toContain(
        'Du hast die erlaubte Höchstzahl erreicht. Lösche zuerst einen Eintrag.',
      ),
    );
  });

  it('users get no shared switch', async () => {
    stubApi({ 'GET /api/domains': { status: 200, body: [] } });
    renderWithQueries(<DomainsPanel userId={ME.id} admin={false} />);
    await screen.findByTestId('domains-empty');
    expect(screen.queryByLabelText(/Für alle freigeben/)).toBeNull();
  });

  it('saves the redirects (empty: null)', async () => {
    const d = domain('neu.example', { homeRedirect: 'https://alt.example/' });
    const calls = stubApi({
      'GET /api/domains': { status: 200, body: [d] },
      'PATCH /api/domains/id-neu.example': { status: 200, body: d },
    });
    renderWithQueries(<DomainsPanel userId={ME.id} admin={false} />);
    const home = await screen.findByLabelText('Weiterleitung der Startseite');
    expect(home).toHaveValue('https://alt.example/');
    fireEvent.change(home, { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Weiterleitung bei unbekanntem Code'), {
      target: { value: 'https://example.com/404' },
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Speichern' }));
    });
    await waitFor(() => expect(texts()).toContain('Die Weiterleitungen wurden gespeichert.'));
    expect(calls.find((c) => c.call.startsWith('PATCH'))?.json).toEqual({
      homeRedirect: null,
      notFoundRedirect: 'https://example.com/404',
    });
  });

  it('deletes only after the question; a domain in use says why it stays', async () => {
    const calls = stubApi({
      'GET /api/domains': { status: 200, body: [domain('neu.example')] },
      'DELETE /api/domains/id-neu.example': {
        status: 409,
        body: { status: 409, detail: 'Domain in use', errorKey: 'domain_in_use' },
      },
    });
    renderWithQueries(<DomainsPanel userId={ME.id} admin={false} />);
    fireEvent.click(await screen.findByRole('button', { name: 'neu.example löschen' }));
    expect(calls.some((c) => c.call.startsWith('DELETE'))).toBe(false);
    expect(
      await screen.findByText('Möchtest du die Domain neu.example wirklich löschen?'),
    ).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Endgültig löschen' }));
    });
    await waitFor(() =>
      expect(texts()).toContain(
        'Auf dieser Domain gibt es noch Shorts. Lösche oder verschiebe sie zuerst.',
      ),
    );
  });
});

describe('the domain select of the create form', () => {
  const list = [domain('go.example.com', { owner: null, verified: true }), domain('neu.example')];

  it('is not shown without a usable domain', async () => {
    const calls = stubApi({ 'GET /api/domains': { status: 200, body: [domain('neu.example')] } });
    auth.status = 'authenticated';
    render(<CreateForm />);
    openAdvanced();
    await waitFor(() => expect(calls.map((c) => c.call)).toContain('GET /api/domains'));
    expect(screen.queryByLabelText('Domain')).toBeNull();
  });

  it('offers the main host first and the usable domains; the last choice is the default', async () => {
    localStorage.setItem(LAST_DOMAIN_KEY, 'go.example.com');
    stubApi({ 'GET /api/domains': { status: 200, body: list } });
    auth.status = 'authenticated';
    render(<CreateForm />);
    openAdvanced();
    const select = await screen.findByLabelText('Domain');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Diese Domain (Standard)', 'go.example.com']);
    await waitFor(() => expect(select).toHaveValue('go.example.com'));
  });

  it('creates on the chosen domain, opens its info page naming the domain, remembers the choice (design consent)', async () => {
    cookies.consent.services.design = true;
    const calls = stubApi({
      'GET /api/domains': { status: 200, body: list },
      'POST /api/code': {
        status: 201,
        body: { code: 'abc123', shortUrl: 'https://go.example.com/abc123' },
      },
    });
    const mem = renderCreateLoggedIn();
    fireEvent.change(await screen.findByLabelText('Domain'), {
      target: { value: 'go.example.com' },
    });
    fireEvent.change(screen.getByLabelText('URL'), { target: { value: 'https://example.com/x' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Kürzen' }));
    });
    await waitFor(() =>
      expect(mem.history.at(-1)).toBe('/s/abc123/info?show_created=true&domain=go.example.com'),
    );
    expect(calls.find((c) => c.call === 'POST /api/code')?.json).toMatchObject({
      url: 'https://example.com/x',
      domain: 'go.example.com',
    });
    expect(localStorage.getItem(LAST_DOMAIN_KEY)).toBe('go.example.com');
  });

  it('without the design consent nothing is remembered', async () => {
    stubApi({
      'GET /api/domains': { status: 200, body: list },
      'POST /api/code': { status: 201, body: { code: 'abc123' } },
    });
    const mem = renderCreateLoggedIn();
    await screen.findByLabelText('Domain');
    fireEvent.change(screen.getByLabelText('URL'), { target: { value: 'https://example.com/x' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Kürzen' }));
    });
    // The main host: its info page.
    await waitFor(() => expect(mem.history.at(-1)).toBe('/s/abc123/info?show_created=true'));
    expect(localStorage.getItem(LAST_DOMAIN_KEY)).toBeNull();
  });
});

describe('the ShareX panel', () => {
  it('offers the usable domains; the copied config creates on the chosen one', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    render(<ShareXPanel apiKey="us_k" domains={['go.example.com']} />);
    fireEvent.change(screen.getByLabelText('Domain der Shorts aus ShareX'), {
      target: { value: 'go.example.com' },
    });
    await act(async () => {
      fireEvent.click(screen.getByTestId('sharex-copy'));
    });
    const config = JSON.parse((writeText.mock.calls[0] as unknown as [string])[0]) as {
      Data: string;
      URL: string;
    };
    expect(JSON.parse(config.Data)).toEqual({ url: '{input}', domain: 'go.example.com' });
    expect(config.URL).toBe('{json:shortUrl}');
  });

  it('shows no domain choice without usable domains', () => {
    render(<ShareXPanel apiKey="us_k" />);
    expect(screen.queryByLabelText('Domain der Shorts aus ShareX')).toBeNull();
  });
});
