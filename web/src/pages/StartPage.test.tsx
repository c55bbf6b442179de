import { act, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { Shell } from '../components/Shell';
import { runtimeConfig } from '../runtime-config';
import { auth, fetchAccount } from '../state/auth';
import { applyLanguage } from '../state/language';
import { resetAfterEach, shortFixture, stubApi } from '../test-fixtures';
import LoginPage from './LoginPage';
import StartPage from './StartPage';
import { QueryClientProvider } from '@tanstack/react-query';
import { createAppQueryClient } from '../api/query';

resetAfterEach();

const user = {
  id: 'u1',
  username: 'lotte',
  email: null,
  imageUrl: null,
  activated: true,
  createdDate: '2026-01-01T10:00:00.000Z',
  authorities: ['ROLE_USER'],
};

function at(path: string, ui: React.ReactElement) {
  return render(<Router hook={memoryLocation({ path }).hook}>{ui}</Router>);
}

describe('the start page figures (HOME_FIGURES=live, the default)', () => {
  it('is the default of a client without an island', () => {
    expect(runtimeConfig.homeFigures).toBe('live');
  });

  it('shows only the cards whose count is 10 or more', async () => {
    stubApi({ 'GET /api/figures': { status: 200, body: { links: 20, visits: 0, users: 10 } } });
    at('/', <StartPage />);
    const cards = await screen.findByTestId('figures');
    expect(cards).toHaveTextContent('20+ Links');
    expect(cards).toHaveTextContent('10+ Nutzer');
    expect(cards).not.toHaveTextContent('Aufrufe');
  });

  it('a new instance shows no figures rather than zeros (and nothing while loading)', async () => {
    const calls = stubApi({
      'GET /api/figures': { status: 200, body: { links: 0, visits: 0, users: 0 } },
    });
    at('/', <StartPage />);
    expect(screen.queryByRole('heading', { name: 'URL-Shorter in Zahlen' })).toBeNull();
    await waitFor(() => expect(calls.map((c) => c.call)).toContain('GET /api/figures'));
    await act(async () => {});
    expect(screen.queryByRole('heading', { name: 'URL-Shorter in Zahlen' })).toBeNull();
    expect(screen.queryByTestId('figures')).toBeNull();
  });

  it("static: the specification's cards, asked for nowhere", () => {
    runtimeConfig.homeFigures = 'static';
    try {
      const calls = stubApi({});
      at('/', <StartPage />);
      expect(screen.getByTestId('figures')).toHaveTextContent(
        /300\+ Links.*100\+ Aufrufe.*41\+ Nutzer/,
      );
      expect(calls).toEqual([]);
    } finally {
      runtimeConfig.homeFigures = 'live';
    }
  });
});

describe('the logged-in start page', () => {
  it("shows the user's five latest shorts, newest first, with the way to all", async () => {
    const rows = Array.from({ length: 5 }, (_, i) =>
      shortFixture({
        id: `id-${i}`,
        code: `code${i}`,
        name: i === 0 ? 'Herbstfest' : null,
        shortUrl: `http://localhost/s/code${i}`,
        url: `https://example.com/${i}`,
      }),
    );
    const calls = stubApi({
      'GET /api/code': { status: 200, body: { content: rows, totalElements: 12 } },
      'GET /api/figures': { status: 200, body: { links: 0, visits: 0, users: 0 } },
    });
    auth.status = 'authenticated';
    auth.user = user;
    at('/', <StartPage />);
    const list = await screen.findByTestId('latest-shorts');
    expect(within(list).getByRole('heading', { name: 'Deine neuesten Shorts' })).toBeVisible();
    const items = within(list).getAllByTestId('latest-short');
    expect(items).toHaveLength(5);
    expect(within(items[0]).getByRole('link', { name: 'Herbstfest' })).toHaveAttribute(
      'href',
      '/s/code0/info',
    );
    expect(items[1]).toHaveTextContent('http://localhost/s/code1 → https://example.com/1');
    expect(within(list).getByRole('link', { name: 'Alle deine Shorts' })).toHaveAttribute(
      'href',
      '/shorts',
    );
    const asked = calls.find((c) => c.call === 'GET /api/code');
    expect(asked).toBeDefined();
    // No pitch for those who have an account.
    expect(screen.queryByRole('heading', { name: 'Vorteile eines Accounts' })).toBeNull();
  });

  it('anonymous visitors see no list and ask for none', async () => {
    auth.status = 'unauthenticated';
    const calls = stubApi({
      'GET /api/figures': { status: 200, body: { links: 0, visits: 0, users: 0 } },
    });
    at('/', <StartPage />);
    expect(await screen.findByRole('heading', { name: 'Vorteile eines Accounts' })).toBeVisible();
    expect(screen.queryByTestId('latest-shorts')).toBeNull();
    expect(calls.map((c) => c.call)).not.toContain('GET /api/code');
  });
});

describe('who is logged in', () => {
  it('anonymous: asks /api/logged-in only, never /api/account (no 401 in the console)', async () => {
    const calls = stubApi({ 'GET /api/logged-in': { status: 200, body: { loggedIn: false } } });
    await fetchAccount();
    expect(calls.map((c) => c.call)).toEqual(['GET /api/logged-in']);
    expect(auth.status).toBe('unauthenticated');
  });

  it('logged in: then the account', async () => {
    const calls = stubApi({
      'GET /api/logged-in': { status: 200, body: { loggedIn: true } },
      'GET /api/account': { status: 200, body: user },
    });
    await fetchAccount();
    expect(calls.map((c) => c.call)).toEqual(['GET /api/logged-in', 'GET /api/account']);
    expect(auth.status).toBe('authenticated');
    expect(auth.user?.username).toBe('lotte');
  });
});

describe('the login page', () => {
  function renderLogin() {
    stubApi({
      'GET /api/auth-providers': { status: 200, body: [{ name: 'dev', url: '/api/auth/dev' }] },
    });
    auth.status = 'unauthenticated';
    return render(
      <QueryClientProvider client={createAppQueryClient()}>
        <Router hook={memoryLocation({ path: '/login' }).hook}>
          <Shell>
            <LoginPage />
          </Shell>
        </Router>
      </QueryClientProvider>,
    );
  }

  afterEach(() => {
    runtimeConfig.footer.termsUrl = null;
  });

  it("links the terms checkbox's words to FOOTER_TERMS_URL in a new tab", async () => {
    runtimeConfig.footer.termsUrl = 'https://example.org/terms';
    renderLogin();
    const box = await screen.findByRole('checkbox', {
      name: /Ich akzeptiere die Nutzungsbedingungen/,
    });
    expect(box).not.toBeChecked();
    const link = screen.getByTestId('terms-link');
    expect(link).toHaveAttribute('href', 'https://example.org/terms');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveTextContent('Nutzungsbedingungen');
  });

  it('without FOOTER_TERMS_URL the label is the plain sentence', async () => {
    renderLogin();
    expect(
      await screen.findByRole('checkbox', { name: 'Ich akzeptiere die Nutzungsbedingungen' }),
    ).toBeVisible();
    expect(screen.queryByTestId('terms-link')).toBeNull();
  });

  it("the top bar offers no 'Anmelden' button on the login page itself", async () => {
    renderLogin();
    await screen.findByRole('heading', { name: 'Anmelden', level: 1 });
    expect(screen.queryByRole('link', { name: 'Anmelden' })).toBeNull();
  });

  it('the terms link works in English too', async () => {
    runtimeConfig.footer.termsUrl = 'https://example.org/terms';
    await applyLanguage('en');
    try {
      renderLogin();
      const link = await screen.findByTestId('terms-link');
      expect(link).toHaveTextContent('terms of use');
      expect(
        screen.getByRole('checkbox', { name: /^I accept the terms of use/ }),
      ).toBeInTheDocument();
    } finally {
      await applyLanguage('de');
    }
  });
});
