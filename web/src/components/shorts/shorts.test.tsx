import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ColumnFilter } from './ColumnFilter';
import { UrlCell } from './UrlCell';

afterEach(() => {
  cleanup();
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
