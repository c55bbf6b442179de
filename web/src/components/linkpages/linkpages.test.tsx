import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { PageDto } from '../../api/pages';
import LinkPagesPage from '../../pages/LinkPagesPage';
import { applyLanguage } from '../../state/language';
import { space } from '../../state/space';
import { resetAfterEach, stubApi, toastTexts } from '../../test-fixtures';
import { renderWithQueries } from '../../test-utils';
import { moved } from './PageEditor';

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
