import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { PageDto } from '../../api/pages';
import LinkPagesPage from '../../pages/LinkPagesPage';
import { applyLanguage } from '../../state/language';
import { space } from '../../state/space';
import { FLAGS } from '../../lib/flag-rule';
import { flags } from '../../state/flags';
import { resetAfterEach, stubApi, toastTexts } from '../../test-fixtures';
import { recordUrls, renderAt, renderWithQueries } from '../../test-utils';
import { moved } from './PageEditor';

// uPlot needs a canvas; the chart is not what these tests look at.
vi.mock('../info/statistics/StatsChart', () => ({
  StatsChart: () => <div data-testid="stats-chart" />,
}));

resetAfterEach();

const SHORTS = [
  { id: 's-1', code: 'abc1234', name: 'Herbst-Aktion', shortUrl: 'http://localhost/s/abc1234' },
  { id: 's-2', code: 'xyz9876', name: null, shortUrl: 'http://localhost/s/xyz9876' },
];

const PAGE: PageDto = {
  id: 'p-1',
  slug: 'herbst',
  url: 'http://localhost/p/herbst',
  title: 'Herbst',
  description: null,
  theme: 'auto',
  team: null,
  links: [
    {
      shortId: 's-1',
      label: 'Erster',
      code: 'abc1234',
      name: 'Herbst-Aktion',
      shortUrl: 'x',
      shown: true,
    },
    { shortId: 's-2', label: null, code: 'xyz9876', name: null, shortUrl: 'y', shown: true },
  ],
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};

const shortsPage = {
  status: 200,
  body: {
    content: SHORTS,
    totalElements: 2,
    totalPages: 1,
    number: 0,
    size: 250,
    numberOfElements: 2,
    first: true,
    last: true,
    empty: false,
  },
};

beforeEach(() => {
  space.current = null;
  space.teams = [];
  flags.enabled = { [FLAGS.statistics]: true };
});
afterEach(async () => {
  await applyLanguage('de');
});

function renderPage() {
  const mem = memoryLocation({ path: '/account/pages', record: true });
  return renderWithQueries(
    <Router hook={mem.hook}>
      <Route path="/account/pages">
        <LinkPagesPage />
      </Route>
    </Router>,
  );
}

describe('the link pages', () => {
  it('moves entries up and down, never past the ends', () => {
    expect(moved(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
    expect(moved(['a', 'b'], 1, 1)).toEqual(['a', 'b']);
  });

  it('creates a page: address, title, theme, shorts with labels in the chosen order', async () => {
    let pages: PageDto[] = [];
    const calls = stubApi({
      'GET /api/pages': () => ({ status: 200, body: pages }),
      'GET /api/code': shortsPage,
      'POST /api/pages': () => {
        pages = [PAGE];
        return { status: 201, body: PAGE };
      },
    });
    renderPage();
    expect(await screen.findByText('Noch keine Link-Seiten')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Neue Link-Seite' }));
    const form = await screen.findByRole('form', { name: 'Neue Link-Seite anlegen' });
    fireEvent.change(within(form).getByLabelText('Adresse'), { target: { value: 'herbst' } });
    fireEvent.change(within(form).getByLabelText('Titel'), { target: { value: 'Herbst' } });
    fireEvent.change(within(form).getByLabelText('Farben'), { target: { value: 'dark' } });
    const add = within(form).getByLabelText('Short hinzufügen');
    await waitFor(() => expect(within(add).getAllByRole('option')).toHaveLength(3));
    fireEvent.change(add, { target: { value: 's-1' } });
    fireEvent.change(add, { target: { value: 's-2' } });
    fireEvent.change(within(form).getByLabelText('Beschriftung (optional): xyz9876'), {
      target: { value: 'Zweiter' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Nach oben: xyz9876' }));
    expect(within(form).getByRole('button', { name: 'Nach oben: xyz9876' })).toBeDisabled();
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Speichern' }));
    });
    const post = calls.find((c) => c.call === 'POST /api/pages');
    expect(post?.json).toEqual({
      slug: 'herbst',
      title: 'Herbst',
      description: null,
      theme: 'dark',
      links: [
        { shortId: 's-2', label: 'Zweiter' },
        { shortId: 's-1', label: null },
      ],
    });
    expect(toastTexts()).toContain('Link-Seite gespeichert');
    expect(await screen.findByText('http://localhost/p/herbst')).toBeInTheDocument();
  });

  it('edits a page (PATCH without team) and shows the server’s refusal in English', async () => {
    await applyLanguage('en');
    const calls = stubApi({
      'GET /api/pages': { status: 200, body: [PAGE] },
      'GET /api/code': shortsPage,
      'PATCH /api/pages/p-1': {
        status: 409,
        body: {
          status: 409,
          title: 'Conflict',
          detail: 'Slug already exists',
          errorKey: 'slug_exists',
        },
      },
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit: Herbst' }));
    const form = await screen.findByRole('form', { name: 'Edit link page' });
    fireEvent.click(within(form).getByRole('button', { name: 'Remove: Herbst-Aktion (abc1234)' }));
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    });
    const patch = calls.find((c) => c.call === 'PATCH /api/pages/p-1');
    expect(patch?.json).toMatchObject({ slug: 'herbst', links: [{ shortId: 's-2', label: null }] });
    expect(patch?.json).not.toHaveProperty('team');
    expect(await within(form).findByTestId('page-error')).toHaveTextContent(
      'This address is already taken.',
    );
  });
});

/** A page's views in the shape of a short's statistics: two days, visitors not kept. */
const STATS = {
  from: '2026-11-01T00:00:00.000Z',
  to: '2026-11-03T00:00:00.000Z',
  granularity: 'day',
  tz: 'Europe/Berlin',
  total: { visits: 1234, visitors: 0, bots: 7 },
  series: [
    { start: '2026-11-01T00:00:00.000Z', visits: 1000, visitors: 0, bots: 5 },
    { start: '2026-11-02T00:00:00.000Z', visits: 234, visitors: 0, bots: 2 },
  ],
  referrers: [],
  countries: [],
  browsers: [],
  os: [],
  devices: [],
  targets: [],
};

describe('a link page’s statistics', () => {
  it('are linked from the list and ask GET /api/pages/{id}/statistics: views and bots, no lists', async () => {
    stubApi({
      'GET /api/pages': { status: 200, body: [PAGE] },
      'GET /api/pages/p-1/statistics': { status: 200, body: STATS },
    });
    const urls = recordUrls({ pathAndQuery: true });
    const { mem } = renderAt('/account?view=pages', '/account', <LinkPagesPage />);
    // The first render of the list is slow on a loaded machine.
    const open = await screen.findByRole('link', { name: 'Statistik: Herbst' }, { timeout: 5000 });
    expect(open).toHaveAttribute('href', '/account?view=pages&stats=p-1');
    fireEvent.click(open);
    expect(
      await screen.findByRole(
        'heading',
        { name: 'Statistik der Link-Seite „Herbst“' },
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
    expect(mem.history?.at(-1)).toBe('/account?view=pages&stats=p-1');
    expect(await screen.findByTestId('stats-total-visits')).toHaveTextContent('1.234');
    expect(screen.getByTestId('stats-total-bots')).toHaveTextContent('7');
    const asked = urls.filter((u) => u.startsWith('/api/pages/p-1/statistics?'));
    expect(asked).toHaveLength(1);
    const q = new URLSearchParams(asked[0].slice(asked[0].indexOf('?')));
    expect(q.get('granularity')).toBe('day');
    expect(q.get('from')).toBeTruthy();
    expect(q.get('tz')).toBeTruthy();
    // Pages keep neither visitors nor top lists, and have no CSV.
    expect(screen.queryByTestId('stats-total-visitors')).toBeNull();
    expect(screen.queryByTestId('stats-referrers')).toBeNull();
    expect(screen.queryByTestId('stats-targets')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Als CSV herunterladen' })).toBeNull();
    const rows = within(screen.getByTestId('stats-table')).getAllByRole('row');
    expect(rows[0]).toHaveTextContent('BeginnAufrufeBots');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('1000');
    expect(rows[2]).toHaveTextContent('234');
    expect(screen.getByRole('link', { name: 'Zurück zu den Link-Seiten' })).toHaveAttribute(
      'href',
      '/account?view=pages',
    );
  });

  it('a new range asks again (in English)', async () => {
    await applyLanguage('en');
    stubApi({
      'GET /api/pages': { status: 200, body: [PAGE] },
      'GET /api/pages/p-1/statistics': { status: 200, body: STATS },
    });
    const urls = recordUrls({ pathAndQuery: true });
    renderAt('/account?view=pages&stats=p-1', '/account', <LinkPagesPage />);
    expect(
      await screen.findByRole(
        'heading',
        { name: 'Statistics of the link page “Herbst”' },
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
    await screen.findByTestId('stats-total-visits');
    fireEvent.change(screen.getByLabelText('Period'), { target: { value: '24h' } });
    await waitFor(() =>
      expect(urls.filter((u) => u.startsWith('/api/pages/p-1/statistics?'))).toHaveLength(2),
    );
    const last = urls.filter((u) => u.startsWith('/api/pages/p-1/statistics?')).at(-1) ?? '';
    expect(new URLSearchParams(last.slice(last.indexOf('?'))).get('granularity')).toBe('hour');
  });

  it('says when the page is not (any more) among the caller’s, or statistics are off', async () => {
    stubApi({ 'GET /api/pages': { status: 200, body: [] } });
    const first = renderAt('/account?view=pages&stats=p-9', '/account', <LinkPagesPage />);
    expect(await screen.findByTestId('page-stats-missing')).toHaveTextContent(
      'Diese Link-Seite gibt es nicht (mehr).',
    );
    first.unmount();
    flags.enabled = {};
    stubApi({ 'GET /api/pages': { status: 200, body: [PAGE] } });
    const urls = recordUrls({ pathAndQuery: true });
    renderAt('/account?view=pages&stats=p-1', '/account', <LinkPagesPage />);
    expect(await screen.findByTestId('page-stats-off')).toHaveTextContent(
      'Statistiken sind auf diesem Server ausgeschaltet.',
    );
    expect(urls).toContain('/api/pages');
    expect(urls.some((u) => u.includes('/statistics'))).toBe(false);
  });
});

describe('the editor’s preview', () => {
  const texts = () => screen.getAllByTestId('page-preview-link').map((l) => l.textContent);

  it('shows the unsaved title, description, labels in order and the chosen colours', async () => {
    const hidden: PageDto = {
      ...PAGE,
      theme: 'light',
      description: 'Alles zum Herbst',
      links: [
        ...PAGE.links,
        {
          shortId: 's-3',
          label: 'Abgelaufen',
          code: 'old0001',
          name: null,
          shortUrl: 'z',
          shown: false,
        },
      ],
    };
    stubApi({
      'GET /api/pages': { status: 200, body: [hidden] },
      'GET /api/code': shortsPage,
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Bearbeiten: Herbst' }));
    const form = await screen.findByRole('form', { name: 'Link-Seite bearbeiten' });
    const preview = screen.getByTestId('page-preview');
    expect(within(form).getByRole('heading', { name: 'Vorschau' })).toBeInTheDocument();
    expect(preview).toHaveAttribute('data-theme', 'light');
    expect(preview).toHaveStyle({ background: '#f6f7f9' });
    expect(screen.getByTestId('page-preview-title')).toHaveTextContent('Herbst');
    expect(screen.getByTestId('page-preview-description')).toHaveTextContent('Alles zum Herbst');
    // The label, else the short's name, else its code; the hidden link is left out and said.
    expect(texts()).toEqual(['Erster', 'xyz9876']);
    expect(screen.getByTestId('page-preview-hidden')).toHaveTextContent(
      'Ein derzeit nicht sichtbarer Link fehlt hier.',
    );
    expect(within(form).getByText(/Derzeit nicht sichtbar/)).toBeInTheDocument();

    fireEvent.change(within(form).getByLabelText('Titel'), { target: { value: 'Winter' } });
    fireEvent.change(within(form).getByLabelText('Beschreibung (optional)'), {
      target: { value: ' ' },
    });
    fireEvent.change(within(form).getByLabelText('Farben'), { target: { value: 'dark' } });
    fireEvent.change(within(form).getByLabelText('Beschriftung (optional): xyz9876'), {
      target: { value: 'Zweiter' },
    });
    fireEvent.change(
      within(form).getByLabelText('Beschriftung (optional): Herbst-Aktion (abc1234)'),
      {
        target: { value: '' },
      },
    );
    fireEvent.click(within(form).getByRole('button', { name: 'Nach oben: xyz9876' }));
    expect(screen.getByTestId('page-preview-title')).toHaveTextContent('Winter');
    expect(screen.queryByTestId('page-preview-description')).toBeNull();
    expect(screen.getByTestId('page-preview')).toHaveAttribute('data-theme', 'dark');
    expect(screen.getByTestId('page-preview')).toHaveStyle({ background: '#0d1117' });
    expect(texts()).toEqual(['Zweiter', 'Herbst-Aktion']);
  });

  it('a new page without links says so, as the page will', async () => {
    stubApi({ 'GET /api/pages': { status: 200, body: [] }, 'GET /api/code': shortsPage });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Neue Link-Seite' }));
    const preview = await screen.findByTestId('page-preview');
    expect(preview).toHaveTextContent('Hier sind noch keine Links.');
    expect(preview).toHaveTextContent('Erstellt mit URL-Shorter');
    expect(screen.queryAllByTestId('page-preview-link')).toHaveLength(0);
  });
});
