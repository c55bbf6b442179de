import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ColumnFilter } from './ColumnFilter';
import { Pager } from '../table/Pager';
import { UrlCell } from './UrlCell';

afterEach(() => {
  cleanup();
});

describe('pager', () => {
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

describe('column filter', () => {
  it('disables the switch of the last visible column', () => {
    render(<ColumnFilter visible={['code']} onToggle={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Spalten' }));
    expect(screen.getByLabelText('Code')).toBeDisabled();
    expect(screen.getByLabelText('Name')).toBeEnabled();
    expect(screen.getByLabelText('Name')).not.toBeChecked();
  });
});

describe('url cell', () => {
  it('cuts after 100 characters and shows the full url on click', () => {
    const url = `https://example.com/${'a'.repeat(120)}`;
    render(<UrlCell url={url} />);
    const button = screen.getByRole('button');
    expect(button).toHaveTextContent(`${url.slice(0, 100)}…`);
    fireEvent.click(button);
    expect(button).toHaveTextContent(url);
    expect(button).toHaveAttribute('aria-expanded', 'true');
  });
});
