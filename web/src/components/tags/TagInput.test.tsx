import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { applyCatalogue } from '../../i18n/current';
import { de } from '../../i18n/de';
import { en } from '../../i18n/en';
import { forgetTagSuggestions } from '../../lib/tags-api';
import { resetAfterEach, stubApi, type ApiCall } from '../../test-fixtures';
import { addTypedTags, matchSuggestions, TagInput } from './TagInput';

resetAfterEach();

const SPACE_TAGS = [
  { tag: 'Sale', count: 7 },
  { tag: 'Herbst', count: 5 },
  { tag: 'Newsletter', count: 3 },
  { tag: 'Herbstaktion', count: 2 },
  { tag: 'Vorherbst', count: 1 },
];

let calls: ApiCall[];
beforeEach(() => {
  forgetTagSuggestions();
  calls = stubApi({
    'GET /api/tags': { status: 200, body: SPACE_TAGS },
  });
});

/** A labelled TagInput that keeps its value, as a form would; `changes` sees every onChange. */
function Harness({
  initial = [],
  changes,
  team,
}: {
  initial?: string[];
  changes?: (tags: string[]) => void;
  team?: string | null;
}) {
  const [tags, setTags] = useState<string[]>(initial);
  return (
    <form onSubmit={(e) => e.preventDefault()}>
      <label htmlFor="tags">Tags</label>
      <TagInput
        id="tags"
        value={tags}
        team={team}
        onChange={(next) => {
          changes?.(next);
          setTags(next);
        }}
      />
    </form>
  );
}

const box = () => screen.getByRole('combobox', { name: 'Tags' });
const chips = (name = 'Gewählte Tags') =>
  within(screen.queryByRole('list', { name }) ?? document.createElement('ul'))
    .queryAllByRole('listitem')
    .map((li) => li.getAttribute('data-tag'));
const typeInto = (text: string) => fireEvent.change(box(), { target: { value: text } });
const key = (k: string) => fireEvent.keyDown(box(), { key: k });

describe('addTypedTags (the shared rules as typed)', () => {
  it('adds cleaned tags, merges case-insensitive duplicates into the first spelling', () => {
    expect(addTypedTags(['Herbst'], ['  Sale ', 'herbst', 'SALE', 'Neu'])).toEqual({
      tags: ['Herbst', 'Sale', 'Neu'],
      rest: [],
    });
  });

  it('stops at an invalid tag and keeps it (and what follows) as typed', () => {
    expect(addTypedTags([], ['ok', 'a/b', 'later'])).toEqual({
      tags: ['ok'],
      problem: { kind: 'invalid', tag: 'a/b' },
      rest: ['a/b', 'later'],
    });
    expect(addTypedTags([], ['x'.repeat(33)]).problem).toEqual({
      kind: 'invalid',
      tag: 'x'.repeat(33),
    });
    // Letters of any script, digits, space, - _ . are allowed.
    expect(addTypedTags([], ['Größe 2.0', 'v_1-a', 'Ünïcödé']).tags).toEqual([
      'Größe 2.0',
      'v_1-a',
      'Ünïcödé',
    ]);
  });

  it('refuses an eleventh tag, but not a duplicate of one of the ten', () => {
    const ten = Array.from({ length: 10 }, (_, i) => `t${i}`);
    expect(addTypedTags(ten, ['T3']).tags).toEqual(ten);
    expect(addTypedTags(ten, ['T3']).problem).toBeUndefined();
    expect(addTypedTags(ten, ['elf'])).toEqual({
      tags: ten,
      problem: { kind: 'tooMany' },
      rest: ['elf'],
    });
  });
});

describe('matchSuggestions', () => {
  it('offers the tags starting with the text first, then those containing it, none chosen', () => {
    expect(matchSuggestions(SPACE_TAGS, 'herb', ['herbstaktion']).map((s) => s.tag)).toEqual([
      'Herbst',
      'Vorherbst',
    ]);
    expect(matchSuggestions(SPACE_TAGS, '', ['Sale'], 2).map((s) => s.tag)).toEqual([
      'Herbst',
      'Newsletter',
    ]);
    expect(matchSuggestions(SPACE_TAGS, 'xyz', [])).toEqual([]);
  });
});

describe('TagInput', () => {
  it('adds a typed tag with Enter and with a comma, removes the last with Backspace', () => {
    const changes = vi.fn();
    render(<Harness changes={changes} />);
    typeInto('Herbst');
    key('Enter');
    expect(chips()).toEqual(['Herbst']);
    expect(box()).toHaveValue('');
    typeInto('Sale');
    key(',');
    expect(chips()).toEqual(['Herbst', 'Sale']);
    // A pasted list: every part before the last comma is added, the rest stays to be typed on.
    typeInto('Neu, Winter, Wi');
    expect(chips()).toEqual(['Herbst', 'Sale', 'Neu', 'Winter']);
    expect(box()).toHaveValue('Wi');
    typeInto('');
    key('Backspace');
    expect(chips()).toEqual(['Herbst', 'Sale', 'Neu']);
    expect(changes).toHaveBeenLastCalledWith(['Herbst', 'Sale', 'Neu']);
  });

  it('Enter on an empty input submits the form; with text it only adds the tag', () => {
    const submit = vi.fn((e: { preventDefault: () => void }) => e.preventDefault());
    render(
      <form onSubmit={submit}>
        <TagInput id="t" ariaLabel="Tags" value={[]} onChange={() => undefined} />
      </form>,
    );
    const input = screen.getByRole('combobox', { name: 'Tags' });
    fireEvent.change(input, { target: { value: 'x' } });
    const withText = fireEvent.keyDown(input, { key: 'Enter' });
    expect(withText).toBe(false); // default prevented: no submit
    fireEvent.change(input, { target: { value: '' } });
    const empty = fireEvent.keyDown(input, { key: 'Enter' });
    expect(empty).toBe(true);
  });

  it('× removes a chip; a duplicate in another case is merged silently', () => {
    render(<Harness initial={['Herbst', 'Sale']} />);
    typeInto('HERBST');
    key('Enter');
    expect(chips()).toEqual(['Herbst', 'Sale']);
    fireEvent.click(screen.getByRole('button', { name: 'Tag Herbst entfernen' }));
    expect(chips()).toEqual(['Sale']);
    expect(box()).toHaveFocus();
  });

  it('says why an invalid tag or an eleventh one is not added (German and English)', () => {
    const ten = Array.from({ length: 10 }, (_, i) => `t${i}`);
    const { unmount } = render(<Harness />);
    typeInto('a/b');
    key('Enter');
    expect(chips()).toEqual([]);
    expect(box()).toHaveValue('a/b');
    expect(box()).toHaveAttribute('aria-invalid', 'true');
    expect(box()).toHaveAccessibleDescription(
      /„a\/b“ ist kein gültiger Tag: 1 bis 32 Zeichen aus Buchstaben, Ziffern, Leerzeichen/,
    );
    // Typing on clears the message.
    typeInto('ab');
    expect(box()).not.toHaveAttribute('aria-invalid');
    unmount();

    applyCatalogue('en', en);
    try {
      render(<Harness initial={ten} />);
      typeInto('eleven');
      key('Enter');
      expect(chips('Chosen tags')).toEqual(ten);
      expect(box()).toHaveAccessibleDescription(/At most 10 tags\./);
      expect(screen.getByRole('button', { name: 'Remove tag t0' })).toBeInTheDocument();
    } finally {
      applyCatalogue('de', de);
    }
  });

  it('adds what is typed when the input is left (not in a filter)', () => {
    render(<Harness />);
    typeInto('Herbst');
    fireEvent.blur(box());
    expect(chips()).toEqual(['Herbst']);
    cleanup();
    const changes = vi.fn();
    render(<TagInput id="f" ariaLabel="Tags" value={[]} onChange={changes} commitOnBlur={false} />);
    typeInto('Herb');
    fireEvent.blur(box());
    expect(changes).not.toHaveBeenCalled();
    expect(box()).toHaveValue('Herb');
  });

  it('suggests the space’s tags as typed; the arrow keys choose, Enter takes one', async () => {
    render(<Harness initial={['Sale']} team="t-1" />);
    fireEvent.focus(box());
    typeInto('herb');
    const list = await screen.findByRole('listbox', { name: 'Vorschläge' });
    expect(box()).toHaveAttribute('aria-expanded', 'true');
    expect(box()).toHaveAttribute('aria-controls', list.id);
    const options = within(list).getAllByRole('option');
    expect(options.map((o) => o.firstChild?.textContent)).toEqual([
      'Herbst',
      'Herbstaktion',
      'Vorherbst',
    ]);
    expect(options[0]).toHaveTextContent('5 Shorts');
    expect(options[2]).toHaveTextContent('1 Short');
    key('ArrowDown');
    key('ArrowDown');
    expect(box()).toHaveAttribute('aria-activedescendant', options[1].id);
    expect(options[1]).toHaveAttribute('aria-selected', 'true');
    key('ArrowUp');
    expect(box()).toHaveAttribute('aria-activedescendant', options[0].id);
    key('Enter');
    expect(chips()).toEqual(['Sale', 'Herbst']);
    // The team's tags were asked, once.
    expect(calls.map((c) => c.call)).toEqual(['GET /api/tags']);
  });

  it('a click on a suggestion takes it; Escape closes the list', async () => {
    render(<Harness />);
    fireEvent.focus(box());
    typeInto('news');
    const option = await screen.findByRole('option', { name: /Newsletter/ });
    fireEvent.mouseDown(option);
    fireEvent.click(option);
    expect(chips()).toEqual(['Newsletter']);
    typeInto('s');
    await screen.findByRole('listbox');
    key('Escape');
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    expect(box()).toHaveAttribute('aria-expanded', 'false');
  });

  it('asks the team’s tags (GET /api/tags?team=) and lives without them when that fails', async () => {
    const urls: string[] = [];
    stubApi(() => ({ status: 500, body: { status: 500 } }));
    const inner = globalThis.fetch;
    vi.stubGlobal('fetch', (req: Request) => {
      const u = new URL(req.url);
      urls.push(u.pathname + u.search);
      return inner(req);
    });
    render(<Harness team="t-9" />);
    await act(async () => {
      fireEvent.focus(box());
    });
    await waitFor(() => expect(urls).toEqual(['/api/tags?team=t-9']));
    typeInto('x');
    expect(screen.queryByRole('option')).toBeNull();
    key('Enter');
    expect(chips()).toEqual(['x']);
  });
});
