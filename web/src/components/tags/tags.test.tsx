import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TeamDto } from '../../api/teams';
import { applyCatalogue } from '../../i18n/current';
import { de } from '../../i18n/de';
import { en } from '../../i18n/en';
import { FLAGS } from '../../lib/flag-rule';
import { forgetTagSuggestions, type TagStatisticsAnswer } from '../../lib/tags-api';
import ShortsPage from '../../pages/ShortsPage';
import TagStatisticsPage from '../../pages/TagStatisticsPage';
import { auth } from '../../state/auth';
import { flags } from '../../state/flags';
import { space, SPACE_KEY } from '../../state/space';
import {
  resetAfterEach,
  shortFixture,
  stubApi,
  toastTexts,
  type Answer,
  type ApiCall,
} from '../../test-fixtures';
import { pageAnswer, recordUrls, renderAt } from '../../test-utils';
import { ShortCards } from '../shorts/ShortCards';

// uPlot needs a canvas; the chart is not what these tests look at.
vi.mock('../info/statistics/StatsChart', () => ({
  StatsChart: () => <div data-testid="stats-chart" />,
}));

resetAfterEach();

const TEAM: TeamDto = {
  id: 't-1',
  name: 'Marketing',
  createdAt: '2026-01-01T00:00:00.000Z',
  role: 'owner',
};

const A = shortFixture({ id: 'id-a', code: 'herbst1', tags: ['Herbst', 'Sale'] });
const B = shortFixture({ id: 'id-b', code: 'herbst2', tags: ['Herbst'] });
const C = shortFixture({ id: 'id-c', code: 'plain' });

const page = pageAnswer;

beforeEach(() => {
  localStorage.removeItem(SPACE_KEY);
  space.current = null;
  space.teams = null;
  flags.enabled = { [FLAGS.statistics]: true };
  forgetTagSuggestions();
  auth.status = 'authenticated';
});

/** The `tag` parameters of the own-list calls, in order. */
const listTags = (urls: readonly string[]) =>
  urls
    .filter((u) => u.startsWith('/api/code?'))
    .map((u) => new URLSearchParams(u.slice(u.indexOf('?'))).getAll('tag'));

/** The own list answering `rows`, a bulk call answering `bulk`, the space's tags. */
function stubList(rows: unknown[], bulk?: () => Answer): ApiCall[] {
  return stubApi({
    'GET /api/code': page(rows),
    'GET /api/tags': {
      status: 200,
      body: [
        { tag: 'Herbst', count: 2 },
        { tag: 'Sale', count: 1 },
      ],
    },
    ...(bulk ? { 'POST /api/code/bulk': bulk } : {}),
  });
}

describe('the tag filter of the own list', () => {
  it('reads the tags from the address, asks GET /api/code?tag=…&tag=… and links their statistics', async () => {
    stubList([A]);
    const urls = recordUrls({ pathAndQuery: true });
    renderAt('/shorts?team=t-1&tag=Herbst&tag=Sale', '/shorts', <ShortsPage />);
    await screen.findByTestId('short-row');
    expect(listTags(urls)).toEqual([['Herbst', 'Sale']]);
    expect(urls.find((u) => u.startsWith('/api/code?'))).toContain('team=t-1');
    const filter = screen.getByTestId('tag-filter');
    expect(
      within(within(filter).getByRole('list', { name: 'Gewählte Tags' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Herbst', 'Sale']);
    expect(screen.getByRole('link', { name: 'Statistik des Tags Herbst' })).toHaveAttribute(
      'href',
      '/tags/Herbst/statistics?team=t-1',
    );
  });

  it('a removed filter tag is a new address (the back button brings it back)', async () => {
    stubList([A]);
    const urls = recordUrls({ pathAndQuery: true });
    const { mem } = renderAt('/shorts?tag=Herbst&tag=Sale', '/shorts', <ShortsPage />);
    await screen.findByTestId('short-row');
    const filter = screen.getByTestId('tag-filter');
    fireEvent.click(within(filter).getByRole('button', { name: 'Tag Herbst entfernen' }));
    expect(mem.history).toEqual(['/shorts?tag=Herbst&tag=Sale', '/shorts?tag=Sale']);
    await waitFor(() => expect(listTags(urls).at(-1)).toEqual(['Sale']));
    fireEvent.click(within(filter).getByRole('button', { name: 'Alle Tag-Filter entfernen' }));
    expect(mem.history.at(-1)).toBe('/shorts');
    await waitFor(() => expect(listTags(urls).at(-1)).toEqual([]));
  });

  it('a tag chip of a short filters the list by it as well', async () => {
    stubList([A, B, C]);
    const urls = recordUrls({ pathAndQuery: true });
    const { mem } = renderAt('/shorts?tag=Sale', '/shorts', <ShortsPage />);
    const rows = await screen.findAllByTestId('short-row');
    const chips = within(rows[0]).getByRole('list', { name: 'Tags von herbst1' });
    const herbst = within(chips).getByRole('link', { name: 'Herbst' });
    expect(herbst).toHaveAttribute('href', '/shorts?tag=Sale&tag=Herbst');
    expect(herbst).toHaveAttribute('title', 'Nur Shorts mit dem Tag Herbst zeigen');
    // The tag filtered by already is shown as chosen.
    expect(within(chips).getByRole('link', { name: 'Sale' })).toHaveAttribute(
      'aria-current',
      'true',
    );
    expect(within(rows[2]).queryByTestId('tag-chips')).toBeNull();
    fireEvent.click(herbst);
    expect(mem.history.at(-1)).toBe('/shorts?tag=Sale&tag=Herbst');
    await waitFor(() => expect(listTags(urls).at(-1)).toEqual(['Sale', 'Herbst']));
  });

  it('says so when no short carries the tags (German, English)', async () => {
    stubList([]);
    renderAt('/shorts?tag=Herbst', '/shorts', <ShortsPage />);
    expect(await screen.findByTestId('shorts-empty')).toHaveTextContent(
      'Kein Short trägt den Tag Herbst.',
    );
    // Not the first-visit state of a user without shorts.
    expect(screen.queryByTestId('shorts-first')).toBeNull();
  });

  it('in English, with several tags', async () => {
    applyCatalogue('en', en);
    try {
      stubList([]);
      renderAt('/shorts?tag=Herbst&tag=Sale', '/shorts', <ShortsPage />);
      expect(await screen.findByTestId('shorts-empty')).toHaveTextContent(
        'No short carries all the tags Herbst, Sale.',
      );
    } finally {
      applyCatalogue('de', de);
    }
  });

  it('shows no tag filter in a space without tags', async () => {
    stubApi({ 'GET /api/code': page([C]), 'GET /api/tags': { status: 200, body: [] } });
    renderAt('/shorts', '/shorts', <ShortsPage />);
    await screen.findByTestId('short-row');
    await act(async () => {});
    expect(screen.queryByTestId('tag-filter')).toBeNull();
  });
});

describe('tag chips on cards', () => {
  it('show below the code, each a link to the list with that tag', () => {
    render(
      <ShortCards
        rows={[A, C]}
        onQr={() => undefined}
        onEdit={() => undefined}
        onDelete={() => undefined}
      />,
    );
    const [first, second] = screen.getAllByTestId('short-card');
    expect(
      within(first)
        .getAllByRole('link')
        .filter((l) => l.hasAttribute('data-tag'))
        .map((l) => [l.textContent, l.getAttribute('href')]),
    ).toEqual([
      ['Herbst', '/shorts?tag=Herbst'],
      ['Sale', '/shorts?tag=Sale'],
    ]);
    expect(second.querySelector('[data-column="tags"]')).toBeNull();
  });
});

/** Renders the list with A, B and C and selects `codes`; returns the calls seen. */
async function selectRows(codes: string[], bulk: () => Answer): Promise<ApiCall[]> {
  const calls = stubList([A, B, C], bulk);
  renderAt('/shorts', '/shorts', <ShortsPage />);
  await screen.findAllByTestId('short-row');
  for (const code of codes) fireEvent.click(screen.getByLabelText(`Short ${code} auswählen`));
  return calls;
}

const bulkCalls = (calls: readonly ApiCall[]) =>
  calls.filter((c) => c.call === 'POST /api/code/bulk').map((c) => c.json);
const listLoads = (calls: readonly ApiCall[]) =>
  calls.filter((c) => c.call === 'GET /api/code').length;

describe('the bulk bar', () => {
  it('appears with the selection and adds tags in one call; says how many changed and reloads', async () => {
    const calls = await selectRows(['herbst1', 'plain'], () => ({
      status: 200,
      body: { changed: ['id-a', 'id-c'], deleted: [] },
    }));
    const bar = screen.getByRole('toolbar', { name: 'Ausgewählte Shorts bearbeiten' });
    expect(within(bar).getByTestId('bulk-count')).toHaveTextContent('2 Shorts ausgewählt');
    fireEvent.click(within(bar).getByRole('button', { name: 'Tags hinzufügen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tags hinzufügen' });
    expect(dialog).toHaveTextContent('Gilt für die 2 ausgewählten Shorts.');
    const apply = within(dialog).getByRole('button', { name: 'Übernehmen' });
    expect(apply).toBeDisabled();
    const input = within(dialog).getByRole('combobox', { name: 'Tags' });
    fireEvent.change(input, { target: { value: 'Herbst, Neu' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    const loads = listLoads(calls);
    await act(async () => {
      fireEvent.click(apply);
    });
    expect(bulkCalls(calls)).toEqual([{ ids: ['id-a', 'id-c'], addTags: ['Herbst', 'Neu'] }]);
    expect(toastTexts()).toContain('2 Shorts geändert.');
    await waitFor(() => expect(listLoads(calls)).toBeGreaterThan(loads));
    await waitFor(() => expect(screen.queryByRole('toolbar')).toBeNull());
  });

  it('removes tags', async () => {
    const calls = await selectRows(['herbst2'], () => ({
      status: 200,
      body: { changed: ['id-b'], deleted: [] },
    }));
    fireEvent.click(screen.getByRole('button', { name: 'Tags entfernen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tags entfernen' });
    expect(dialog).toHaveTextContent('Gilt für den ausgewählten Short.');
    const input = within(dialog).getByRole('combobox', { name: 'Tags' });
    fireEvent.change(input, { target: { value: 'herbst' } });
    // What is typed counts when the form is sent.
    fireEvent.blur(input);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Übernehmen' }));
    });
    expect(bulkCalls(calls)).toEqual([{ ids: ['id-b'], removeTags: ['herbst'] }]);
    expect(toastTexts()).toContain('1 Short geändert.');
  });

  it('sets the expiry as typed (understood like the create form) and max uses', async () => {
    const calls = await selectRows(['herbst1', 'herbst2'], () => ({
      status: 200,
      body: { changed: ['id-a', 'id-b'], deleted: [] },
    }));
    fireEvent.click(screen.getByRole('button', { name: 'Ablaufdatum setzen' }));
    let dialog = await screen.findByRole('dialog', { name: 'Ablaufdatum setzen' });
    const expiry = within(dialog).getByLabelText('Ablaufdatum');
    fireEvent.change(expiry, { target: { value: 'morgen um 15 Uhr' } });
    await waitFor(() => expect(dialog).toHaveTextContent('Verstanden als:'));
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Übernehmen' }));
    });
    const [sent] = bulkCalls(calls) as [{ ids: string[]; set: { expireAt: string } }];
    expect(sent.ids).toEqual(['id-a', 'id-b']);
    const at = new Date(sent.set.expireAt);
    const tomorrow = new Date();
    tomorrow.setDate(tomorrow.getDate() + 1);
    expect([at.getDate(), at.getHours(), at.getMinutes()]).toEqual([tomorrow.getDate(), 15, 0]);

    await screen.findAllByTestId('short-row');
    for (const code of ['herbst1', 'herbst2'])
      fireEvent.click(await screen.findByLabelText(`Short ${code} auswählen`));
    fireEvent.click(await screen.findByRole('button', { name: 'Max. Aufrufe setzen' }));
    dialog = await screen.findByRole('dialog', { name: 'Max. Aufrufe setzen' });
    const uses = within(dialog).getByLabelText('Max. Aufrufe');
    fireEvent.change(uses, { target: { value: '0' } });
    expect(within(dialog).getByRole('button', { name: 'Übernehmen' })).toBeDisabled();
    fireEvent.change(uses, { target: { value: '5' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Übernehmen' }));
    });
    expect(bulkCalls(calls)[1]).toEqual({ ids: ['id-a', 'id-b'], set: { maxUses: 5 } });
  });

  it('an expiry that is not understood cannot be sent; an empty one removes the expiry', async () => {
    const calls = await selectRows(['plain'], () => ({
      status: 200,
      body: { changed: ['id-c'], deleted: [] },
    }));
    fireEvent.click(screen.getByRole('button', { name: 'Ablaufdatum setzen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ablaufdatum setzen' });
    const expiry = within(dialog).getByLabelText('Ablaufdatum');
    expect(dialog).toHaveTextContent('Leer lassen: Die Shorts laufen nie ab.');
    fireEvent.change(expiry, { target: { value: 'blubb' } });
    await waitFor(() => expect(dialog).toHaveTextContent('Das Datum wurde nicht verstanden.'));
    expect(within(dialog).getByRole('button', { name: 'Übernehmen' })).toBeDisabled();
    fireEvent.change(expiry, { target: { value: '' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Übernehmen' }));
    });
    expect(bulkCalls(calls)).toEqual([{ ids: ['id-c'], set: { expireAt: null } }]);
  });

  it('moves into a team the user may write to', async () => {
    space.teams = [TEAM, { ...TEAM, id: 't-2', name: 'Vertrieb', role: 'viewer' }];
    const calls = await selectRows(['plain'], () => ({
      status: 200,
      body: { changed: ['id-c'], deleted: [] },
    }));
    fireEvent.click(screen.getByRole('button', { name: 'In Team verschieben' }));
    const dialog = await screen.findByRole('dialog', { name: 'In Team verschieben' });
    expect(
      within(dialog)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Marketing']);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Übernehmen' }));
    });
    expect(bulkCalls(calls)).toEqual([{ ids: ['id-c'], set: { team: 't-1' } }]);
  });

  it('offers no move without a team to move to', async () => {
    await selectRows(['plain'], () => ({ status: 500 }));
    expect(screen.queryByRole('button', { name: 'In Team verschieben' })).toBeNull();
  });

  it('deletes after a confirmation counted right (1 Short / 3 Shorts), in one call', async () => {
    const calls = await selectRows(['herbst1'], () => ({
      status: 200,
      body: { changed: [], deleted: ['id-a', 'id-b', 'id-c'] },
    }));
    fireEvent.click(screen.getByRole('button', { name: 'Ausgewählte löschen (1)' }));
    let dialog = await screen.findByRole('dialog', { name: '1 Short löschen?' });
    expect(dialog).toHaveTextContent('Der ausgewählte Short wird endgültig gelöscht');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Abbrechen' }));
    fireEvent.click(screen.getByLabelText('Short herbst2 auswählen'));
    fireEvent.click(screen.getByLabelText('Short plain auswählen'));
    fireEvent.click(screen.getByRole('button', { name: 'Ausgewählte löschen (3)' }));
    dialog = await screen.findByRole('dialog', { name: '3 Shorts löschen?' });
    expect(dialog).toHaveTextContent('Die 3 ausgewählten Shorts werden endgültig gelöscht');
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Endgültig löschen' }));
    });
    expect(bulkCalls(calls)).toEqual([{ ids: ['id-a', 'id-b', 'id-c'], delete: true }]);
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);
    expect(toastTexts()).toContain('Shorts erfolgreich gelöscht');
  });

  it('counts right in English too', async () => {
    applyCatalogue('en', en);
    try {
      await selectRows([], () => ({ status: 500 }));
      fireEvent.click(screen.getByLabelText('Select short herbst1'));
      expect(screen.getByTestId('bulk-count')).toHaveTextContent('1 short selected');
      fireEvent.click(screen.getByRole('button', { name: 'Delete selected (1)' }));
      expect(await screen.findByRole('dialog', { name: 'Delete 1 short?' })).toBeInTheDocument();
      fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
      fireEvent.click(screen.getByLabelText('Select short herbst2'));
      fireEvent.click(screen.getByRole('button', { name: 'Delete selected (2)' }));
      expect(await screen.findByRole('dialog', { name: 'Delete 2 shorts?' })).toBeInTheDocument();
    } finally {
      applyCatalogue('de', de);
    }
  });

  it('a 403 names the shorts refused and takes them out of the selection; nothing reloads', async () => {
    const calls = await selectRows(['herbst1', 'herbst2', 'plain'], () => ({
      status: 403,
      body: { status: 403, errorKey: 'not_owner', detail: 'Not owner', ids: ['id-b', 'id-c'] },
    }));
    fireEvent.click(screen.getByRole('button', { name: 'Max. Aufrufe setzen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Max. Aufrufe setzen' });
    fireEvent.change(within(dialog).getByLabelText('Max. Aufrufe'), { target: { value: '3' } });
    const loads = listLoads(calls);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Übernehmen' }));
    });
    expect(toastTexts()).toContain(
      'Nichts wurde geändert: 2 Shorts darfst du nicht ändern (herbst2, plain).',
    );
    // The dialog stays open for another try; the selection keeps the others.
    expect(screen.getByRole('dialog', { name: 'Max. Aufrufe setzen' })).toBeInTheDocument();
    expect(screen.getByTestId('bulk-count')).toHaveTextContent('1 Short ausgewählt');
    expect(screen.getByLabelText('Short herbst1 auswählen')).toBeChecked();
    expect(screen.getByLabelText('Short plain auswählen')).not.toBeChecked();
    expect(listLoads(calls)).toBe(loads);
  });

  it('says when a short would have too many tags', async () => {
    await selectRows(['herbst1'], () => ({
      status: 400,
      body: { status: 400, errorKey: 'too_many_tags', detail: 'Too many tags' },
    }));
    fireEvent.click(screen.getByRole('button', { name: 'Tags hinzufügen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tags hinzufügen' });
    const input = within(dialog).getByRole('combobox', { name: 'Tags' });
    fireEvent.change(input, { target: { value: 'Neu' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Übernehmen' }));
    });
    expect(toastTexts()).toContain(
      'Nichts wurde geändert: Ein Short hätte danach mehr als 10 Tags.',
    );
  });

  it('is not offered to a viewer', async () => {
    space.teams = [{ ...TEAM, role: 'viewer' }];
    stubList([A]);
    renderAt('/shorts?team=t-1', '/shorts', <ShortsPage />);
    await screen.findByTestId('short-row');
    expect(screen.queryByLabelText('Short herbst1 auswählen')).toBeNull();
    expect(screen.queryByRole('toolbar')).toBeNull();
  });
});

const STATS: TagStatisticsAnswer = {
  from: '2026-10-01T00:00:00.000Z',
  to: '2026-10-31T00:00:00.000Z',
  granularity: 'day',
  tz: 'Europe/Berlin',
  total: { visits: 1500, visitors: 900, bots: 12 },
  series: [{ start: '2026-10-01T00:00:00.000Z', visits: 1500, visitors: 900, bots: 12 }],
  referrers: [{ name: 'direct', count: 1500 }],
  countries: [{ name: 'DE', count: 1500 }],
  browsers: [{ name: 'Firefox', count: 1500 }],
  os: [{ name: 'Linux', count: 1500 }],
  devices: [{ name: 'desktop', count: 1500 }],
  targets: [{ name: 'default', count: 1500 }],
  shorts: [
    { id: 'id-a', code: 'herbst1', visits: 1200, domain: null },
    { id: 'id-b', code: 'herbst2', visits: 300, domain: 'go.example' },
  ],
};

describe('the statistics of a tag', () => {
  it('asks GET /api/statistics?tag=… (in the team) and shows the totals, the lists and the Top-Shorts', async () => {
    space.teams = [TEAM];
    stubApi({ 'GET /api/statistics': { status: 200, body: STATS } });
    const urls = recordUrls({ pathAndQuery: true });
    renderAt(
      '/tags/Black%20Friday/statistics?team=t-1',
      '/tags/:tag/statistics',
      <TagStatisticsPage />,
    );
    expect(
      await screen.findByRole('heading', { name: 'Statistik des Tags Black Friday' }),
    ).toBeInTheDocument();
    const asked = new URLSearchParams(urls[0].slice(urls[0].indexOf('?')));
    expect(urls[0].startsWith('/api/statistics?')).toBe(true);
    expect(asked.get('tag')).toBe('Black Friday');
    expect(asked.get('team')).toBe('t-1');
    expect(asked.get('granularity')).toBe('day');
    expect(screen.getByTestId('tag-stats-team')).toHaveTextContent('Team Marketing');
    expect(await screen.findByTestId('stats-total-visits')).toHaveTextContent('1.500');
    // The targets are each short's own rules: no list of them for a tag.
    expect(screen.getByTestId('stats-referrers')).toBeInTheDocument();
    expect(screen.queryByTestId('stats-targets')).toBeNull();
    const top = screen.getByRole('table', { name: /meisten Aufrufe/ });
    expect(
      within(top)
        .getAllByRole('link')
        .map((l) => [l.textContent, l.getAttribute('href')]),
    ).toEqual([
      ['herbst1', '/s/herbst1/info?tab=statistics'],
      ['herbst2', '/s/herbst2/info?tab=statistics&domain=go.example'],
    ]);
    expect(within(top).getAllByRole('row')[1]).toHaveTextContent('1.200');
    const csv = new URL(
      screen.getByRole('link', { name: 'Als CSV herunterladen' }).getAttribute('href') ?? '',
      'http://x',
    );
    expect(csv.pathname).toBe('/api/statistics.csv');
    expect(csv.searchParams.get('tag')).toBe('Black Friday');
    expect(csv.searchParams.get('team')).toBe('t-1');
    expect(screen.getByRole('link', { name: 'Zu den Shorts mit diesem Tag' })).toHaveAttribute(
      'href',
      '/shorts?team=t-1&tag=Black+Friday',
    );
  });

  it('a new range asks again; a failure says so', async () => {
    let fail = false;
    stubApi({
      'GET /api/statistics': () =>
        fail
          ? { status: 500, body: { status: 500, errorKey: 'internal_error' } }
          : { status: 200, body: STATS },
    });
    const urls = recordUrls({ pathAndQuery: true });
    renderAt('/tags/Herbst/statistics', '/tags/:tag/statistics', <TagStatisticsPage />);
    await screen.findByTestId('stats-total-visits');
    expect(urls[0]).not.toContain('team=');
    fail = true;
    fireEvent.change(screen.getByLabelText('Zeitraum'), { target: { value: '24h' } });
    await waitFor(() => expect(urls).toHaveLength(2));
    expect(new URLSearchParams(urls[1].slice(urls[1].indexOf('?'))).get('granularity')).toBe(
      'hour',
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Die Statistiken konnten nicht geladen werden.',
    );
  });

  it('says when the server has statistics off', () => {
    flags.enabled = {};
    stubApi({});
    renderAt('/tags/Herbst/statistics', '/tags/:tag/statistics', <TagStatisticsPage />);
    expect(screen.getByTestId('tag-stats-off')).toHaveTextContent(
      'Statistiken sind auf diesem Server ausgeschaltet.',
    );
  });
});
