import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { UTM_CATALOGUES } from '../../i18n/utm-text';
import { catalogueTexts as texts } from '../../i18n/texts';
import { resetAfterEach, stubApi, toastTexts } from '../../test-fixtures';
import { UtmSection } from './UtmSection';

resetAfterEach();

const template = (over: Record<string, unknown>) => ({
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Newsletter',
  source: 'newsletter',
  medium: 'email',
  campaign: null,
  term: null,
  content: null,
  team: null,
  createdAt: '2026-12-01T10:00:00.000Z',
  ...over,
});

/** The section inside a form that keeps the URL, as the short's form does. */
function Harness({ initial, team = null }: { initial: string; team?: string | null }) {
  const [url, setUrl] = useState(initial);
  return (
    <form onSubmit={(e) => e.preventDefault()}>
      <label htmlFor="url">URL</label>
      <input id="url" value={url} onChange={(e) => setUrl(e.target.value)} />
      <UtmSection idPrefix="create" url={url} onUrl={setUrl} team={team} />
    </form>
  );
}

const urlBox = () => screen.getByLabelText<HTMLInputElement>('URL');
const field = (name: string) => screen.getByLabelText<HTMLInputElement>(name);
const open = () => fireEvent.click(screen.getByRole('button', { name: /UTM-Parameter/ }));

describe('UtmSection', () => {
  it('folded, says how many values the URL carries; opened, shows them and writes them back', async () => {
    stubApi({ 'GET /api/utm-templates': { status: 200, body: [] } });
    render(<Harness initial="https://example.com/p?a=1&utm_source=news#top" />);
    expect(screen.getByTestId('utm-set').textContent).toBe('1 gesetzt');
    expect(screen.queryByLabelText('utm_source')).toBeNull();
    open();
    expect(field('utm_source').value).toBe('news');
    expect(field('utm_medium').value).toBe('');
    fireEvent.change(field('utm_medium'), { target: { value: 'e mail' } });
    expect(urlBox().value).toBe('https://example.com/p?a=1&utm_source=news&utm_medium=e+mail#top');
    fireEvent.change(field('utm_source'), { target: { value: '' } });
    expect(urlBox().value).toBe('https://example.com/p?a=1&utm_medium=e+mail#top');
    // The URL is the truth: editing it changes the fields.
    fireEvent.change(urlBox(), { target: { value: 'https://example.com/?utm_term=x' } });
    expect(field('utm_term').value).toBe('x');
    expect(field('utm_medium').value).toBe('');
    await waitFor(() =>
      expect(screen.getByText('Noch keine Vorlagen in diesem Bereich.')).toBeTruthy(),
    );
  });

  it('without a full http(s) URL the fields are disabled and say why', () => {
    stubApi({ 'GET /api/utm-templates': { status: 200, body: [] } });
    render(<Harness initial="example.com" />);
    open();
    expect(field('utm_source').disabled).toBe(true);
    expect(screen.getByText(/zuerst eine vollständige Ziel-URL/)).toBeTruthy();
  });

  it("offers the space's templates only and applies one in one choice (all five)", async () => {
    stubApi({
      'GET /api/utm-templates': {
        status: 200,
        body: [
          template({}),
          template({
            id: '00000000-0000-4000-8000-000000000002',
            name: 'Team-Vorlage',
            team: { id: 't1', name: 'Team' },
          }),
        ],
      },
    });
    render(<Harness initial="https://example.com/?utm_term=alt&x=1" />);
    open();
    const select = await screen.findByTestId<HTMLSelectElement>('utm-template');
    await waitFor(() => expect(select.options.length).toBe(2));
    expect([...select.options].map((o) => o.text)).toEqual(['Vorlage wählen …', 'Newsletter']);
    fireEvent.change(select, { target: { value: '00000000-0000-4000-8000-000000000001' } });
    expect(urlBox().value).toBe('https://example.com/?x=1&utm_source=newsletter&utm_medium=email');
    expect(toastTexts()).toContain('Vorlage „Newsletter“ angewendet.');
  });

  it('saves the values as a template of the space (Enter does not submit the form)', async () => {
    const calls = stubApi({
      'GET /api/utm-templates': { status: 200, body: [] },
      'POST /api/utm-templates': {
        status: 201,
        body: template({ name: 'Herbst', team: { id: 't1', name: 'Team' } }),
      },
    });
    let submitted = 0;
    render(
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submitted++;
        }}
      >
        <UtmSection
          idPrefix="edit"
          url="https://example.com/?utm_source=newsletter&utm_medium=email"
          onUrl={() => undefined}
          team="t1"
        />
      </form>,
    );
    open();
    const name = screen.getByTestId('utm-save-name');
    const save = screen.getByRole('button', { name: 'Als Vorlage speichern' });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(name, { target: { value: ' Herbst ' } });
    await act(async () => {
      fireEvent.keyDown(name, { key: 'Enter' });
    });
    await waitFor(() => expect(toastTexts()).toContain('Vorlage „Herbst“ gespeichert.'));
    expect(submitted).toBe(0);
    const post = calls.find((c) => c.call === 'POST /api/utm-templates');
    expect(post?.json).toEqual({
      name: 'Herbst',
      source: 'newsletter',
      medium: 'email',
      campaign: null,
      term: null,
      content: null,
      team: 't1',
    });
  });

  it('says what the server refused', async () => {
    stubApi({
      'GET /api/utm-templates': { status: 200, body: [] },
      'POST /api/utm-templates': {
        status: 409,
        body: { status: 409, detail: 'Quota exceeded', errorKey: 'quota_exceeded' },
      },
    });
    render(<Harness initial="https://example.com/?utm_source=a" />);
    open();
    fireEvent.change(screen.getByTestId('utm-save-name'), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Als Vorlage speichern' }));
    await waitFor(() => expect(toastTexts().join()).toMatch(/Höchstzahl/));
  });
});

describe('managing the templates of the space', () => {
  it('lists them with their values and deletes one after asking in place', async () => {
    const calls = stubApi({
      'GET /api/utm-templates': { status: 200, body: [template({ campaign: 'herbst' })] },
      'DELETE /api/utm-templates/00000000-0000-4000-8000-000000000001': { status: 204 },
    });
    render(<Harness initial="https://example.com/" />);
    open();
    await waitFor(() =>
      expect(screen.getByTestId<HTMLSelectElement>('utm-template').options.length).toBe(2),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Vorlagen verwalten' }));
    const item = await screen.findByTestId('utm-template-item');
    expect(item.textContent).toContain(
      'utm_source=newsletter · utm_medium=email · utm_campaign=herbst',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Vorlage Newsletter löschen' }));
    expect(screen.getByText('Vorlage „Newsletter“ wirklich löschen?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Löschen' }));
    await waitFor(() => expect(screen.queryByTestId('utm-template-item')).toBeNull());
    expect(toastTexts()).toContain('Vorlage gelöscht.');
    expect(calls.map((c) => c.call)).toContain(
      'DELETE /api/utm-templates/00000000-0000-4000-8000-000000000001',
    );
  });

  it('a team viewer sees the team’s templates but no delete', async () => {
    stubApi({
      'GET /api/utm-templates': {
        status: 200,
        body: [template({ team: { id: 't1', name: 'Team' } })],
      },
    });
    render(<Harness initial="https://example.com/" team="t1" />);
    open();
    fireEvent.click(screen.getByRole('button', { name: 'Vorlagen verwalten' }));
    await screen.findByTestId('utm-template-item');
    expect(screen.queryByRole('button', { name: /löschen/ })).toBeNull();
  });
});

describe('the UTM words (i18n/de/utm.ts, en/utm.ts)', () => {
  it('has the same keys and placeholders in both languages', () => {
    const de = texts(UTM_CATALOGUES.de);
    const en = texts(UTM_CATALOGUES.en);
    expect(de.size).toBeGreaterThan(20);
    expect([...en.keys()].sort()).toEqual([...de.keys()].sort());
    const holes = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).join();
    expect([...de].filter(([k, v]) => holes(v) !== holes(en.get(k) ?? ''))).toEqual([]);
  });
});
