import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PageSizeSelect } from './PageSizeSelect';
import { Pager } from './Pager';

afterEach(() => {
  cleanup();
});

describe('pager (bar: the own shorts)', () => {
  it('renders nothing for a single page', () => {
    const { container } = render(<Pager page={1} pageCount={1} onPage={() => undefined} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('jumps only to pages 1 … page count', () => {
    const onPage = vi.fn();
    render(<Pager page={1} pageCount={30} onPage={onPage} />);
    const input = screen.getByLabelText('Gehe zu Seite');
    fireEvent.change(input, { target: { value: '31' } });
    fireEvent.click(screen.getByRole('button', { name: 'Los' }));
    expect(screen.getByText('Bitte eine Seite von 1 bis 30 eingeben.')).toBeInTheDocument();
    expect(onPage).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: '17' } });
    expect(screen.queryByText('Bitte eine Seite von 1 bis 30 eingeben.')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Los' }));
    expect(onPage).toHaveBeenCalledWith(17);
  });

  it('marks the current page and offers next but not previous on page 1', () => {
    const onPage = vi.fn();
    render(<Pager page={1} pageCount={30} onPage={onPage} />);
    expect(screen.getByLabelText('Seite 1')).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByRole('button', { name: 'Vorherige Seite' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Nächste Seite' }));
    expect(onPage).toHaveBeenCalledWith(2);
  });
});

describe('pager (steps: the admin tables)', () => {
  it('says Seite x von y, steps back and forth, and disables at the ends', () => {
    const onPage = vi.fn();
    const { rerender } = render(
      <Pager variant="steps" summaryTestId="where" page={1} pageCount={2} onPage={onPage} />,
    );
    expect(screen.getByTestId('where')).toHaveTextContent('Seite 1 von 2');
    expect(screen.getByRole('button', { name: 'Vorherige Seite' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Nächste Seite' }));
    expect(onPage).toHaveBeenCalledWith(2);
    rerender(
      <Pager variant="steps" summaryTestId="where" page={2} pageCount={2} onPage={onPage} />,
    );
    expect(screen.getByRole('button', { name: 'Nächste Seite' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Vorherige Seite' }));
    expect(onPage).toHaveBeenLastCalledWith(1);
  });

  it('is shown for a single page and for none (Seite 1 von 1)', () => {
    render(<Pager variant="steps" summaryTestId="where" page={1} pageCount={0} onPage={vi.fn()} />);
    expect(screen.getByTestId('where')).toHaveTextContent('Seite 1 von 1');
    expect(screen.getByRole('button', { name: 'Nächste Seite' })).toBeDisabled();
  });
});

describe('page size', () => {
  it('offers the sizes of every table and reports the choice as a number', () => {
    const onSize = vi.fn();
    render(<PageSizeSelect id="size" size={20} onSize={onSize} />);
    const select = screen.getByLabelText('Einträge pro Seite');
    expect(select).toHaveValue('20');
    expect([...select.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      '10',
      '20',
      '35',
      '50',
      '100',
      '250',
    ]);
    fireEvent.change(select, { target: { value: '250' } });
    expect(onSize).toHaveBeenCalledWith(250);
  });
});
