import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Short } from '../../api/client';
import { resetAfterEach, shortFixture, toastTexts } from '../../test-fixtures';
import { QrDialog } from '../manage/QrDialog';
import { RowActions } from './RowActions';
import { ShortCards } from './ShortCards';
import { SortSelect } from './SortSelect';
import { useTableFit } from './useTableFit';

// Issue 40: the list's compact actions, the cards' facts, the cards' sort order and selection, the
// switch from the table to the cards, the QR dialog's copy button.

resetAfterEach();

const SHORT: Short = shortFixture({
  code: 'abc',
  name: 'Sommerfest',
  shortUrl: 'https://short.example/s/abc',
  visits: 1234,
  expireAt: '2026-12-20T09:30:00Z',
  maxUses: 40,
  uses: 3,
});
const none = () => undefined;

describe('row actions', () => {
  it('compact: four icon buttons on one line, named for screen readers and on hover', () => {
    const onQr = vi.fn();
    render(<RowActions short={SHORT} compact onQr={onQr} onEdit={none} onDelete={none} />);
    const buttons = screen.getAllByRole('button');
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual([
      'Link von abc kopieren',
      'QR-Code von abc anzeigen',
      'abc bearbeiten',
      'Short abc löschen',
    ]);
    expect(buttons.map((b) => b.getAttribute('title'))).toEqual([
      'Kopieren',
      'QR-Code',
      'Bearbeiten',
      'Löschen',
    ]);
    for (const b of buttons) {
      expect(b).toHaveTextContent(/^$/); // the icon only
      expect(b.querySelector('svg')).toHaveAttribute('aria-hidden', 'true');
    }
    expect(buttons[0].parentElement).toHaveClass('flex-nowrap');
    fireEvent.click(buttons[1]);
    expect(onQr).toHaveBeenCalledWith(SHORT);
  });

  it('on cards: icon and word', () => {
    render(<RowActions short={SHORT} onQr={none} onEdit={none} onDelete={none} />);
    expect(screen.getByRole('button', { name: 'Short abc löschen' })).toHaveTextContent('Löschen');
    expect(screen.getByRole('button', { name: 'Short abc löschen' })).not.toHaveAttribute('title');
  });
});

describe('short cards', () => {
  it('show visits and expiry; the other chosen columns follow', () => {
    render(
      <ShortCards
        rows={[SHORT, { ...SHORT, id: 'b', code: 'nie', expireAt: null, visits: 0 }]}
        columns={['name', 'code', 'url', 'visits', 'maxUses', 'createdAt', 'expireAt']}
        onQr={none}
        onEdit={none}
        onDelete={none}
      />,
    );
    const [first, second] = screen.getAllByTestId('short-card');
    expect(first.querySelector('[data-testid="card-visits"]')).toHaveTextContent('1.234');
    expect(first.querySelector('[data-testid="card-expiry"]')).toHaveTextContent(
      /^20\.12\.2026, \d{2}:30$/,
    );
    expect(second.querySelector('[data-testid="card-expiry"]')).toHaveTextContent('Nie');
    expect(first).toHaveTextContent('Aufrufe');
    expect(first).toHaveTextContent('Ablaufdatum');
    // Beyond the card's own facts: Max. Aufrufe and Erstellt am, under their names.
    expect(first.querySelector('[data-column="maxUses"]')).toHaveTextContent('40');
    expect(first.querySelector('[data-column="createdAt"]')).toHaveTextContent('2026');
    expect(first).toHaveTextContent('Max. Aufrufe');
    expect(first.querySelector('[data-column="uses"]')).toBeNull();
  });

  it('offer the selection when asked to', () => {
    const onSelect = vi.fn();
    render(
      <ShortCards
        rows={[SHORT]}
        selected={new Set<string>()}
        onSelect={onSelect}
        onQr={none}
        onEdit={none}
        onDelete={none}
      />,
    );
    fireEvent.click(screen.getByLabelText('Short abc auswählen'));
    expect(onSelect).toHaveBeenCalledWith(SHORT.id, true);
  });
});

describe('sort select', () => {
  it('lists the visible sortable columns both ways and reports the choice', () => {
    const onSort = vi.fn();
    render(
      <SortSelect
        columns={['name', 'shortUrl', 'visits']}
        sort={{ field: 'createdAt', dir: 'desc' }}
        onSort={onSort}
      />,
    );
    const select = screen.getByLabelText('Sortieren nach');
    expect(select).toHaveValue('createdAt,desc');
    // Short-Link cannot be sorted by; the current order stays choosable although hidden.
    expect([...select.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'Name, aufsteigend',
      'Name, absteigend',
      'Aufrufe, aufsteigend',
      'Aufrufe, absteigend',
      'Erstellt am, aufsteigend',
      'Erstellt am, absteigend',
    ]);
    fireEvent.change(select, { target: { value: 'visits,desc' } });
    expect(onSort).toHaveBeenCalledWith({ field: 'visits', dir: 'desc' });
  });
});

/** A box with a table of `tableWidth` px: "table" while it fits, else "cards". */
function Fit({ tableWidth, content }: { tableWidth: number; content: unknown }) {
  const { attach, fits } = useTableFit([content]);
  return (
    <div ref={attach} data-testid="box">
      {fits ? (
        <table data-width={tableWidth}>
          <tbody>
            <tr>
              <td>table</td>
            </tr>
          </tbody>
        </table>
      ) : (
        <p>cards</p>
      )}
    </div>
  );
}

describe('table fit', () => {
  it('without a resize observer (jsdom): the table', () => {
    render(<Fit tableWidth={2000} content={1} />);
    expect(screen.getByText('table')).toBeInTheDocument();
  });

  it('a table wider than its box gives way to the cards; new content tries the table again', () => {
    const observers: Array<() => void> = [];
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(private readonly report: () => void) {
          observers.push(() => this.report());
        }
        observe() {}
        disconnect() {}
      },
    );
    vi.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(900);
    vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (
      this: Element,
    ) {
      return { width: Number(this.getAttribute('data-width') ?? 0) } as DOMRect;
    });
    const { rerender } = render(<Fit tableWidth={1100} content={1} />);
    act(() => observers.at(-1)!());
    expect(screen.getByText('cards')).toBeInTheDocument();

    // Fewer columns: the table is tried again and fits.
    rerender(<Fit tableWidth={800} content={2} />);
    act(() => observers.at(-1)!());
    expect(screen.getByText('table')).toBeInTheDocument();
    vi.restoreAllMocks();
  });
});

describe('QR dialog', () => {
  it('copies the link with the button beside it; Schließen alone in the footer', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    render(<QrDialog code="abc" link="https://short.example/s/abc" show onClose={none} />);
    const copy = screen.getByRole('button', { name: 'Link kopieren' });
    await act(async () => {
      fireEvent.click(copy);
      await Promise.resolve();
    });
    expect(writeText).toHaveBeenCalledWith('https://short.example/s/abc');
    expect(copy).toHaveTextContent('Kopiert!');
    expect(toastTexts()).toEqual([]);
    const footer = document.querySelector('.modal-footer')!;
    expect([...footer.querySelectorAll('button, a')].map((b) => b.textContent)).toEqual([
      'Schließen',
    ]);
    expect(screen.getByRole('link', { name: 'Als SVG herunterladen' })).toHaveAttribute(
      'download',
      'abc.svg',
    );
  });
});
