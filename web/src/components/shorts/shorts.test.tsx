import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Short } from '../../api/client';
import { ColumnFilter } from './ColumnFilter';
import { ShortBadges } from './ShortBadges';
import { ShortCards } from './ShortCards';
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
  it('shows host and path on one line, the full url on hover', () => {
    const url = `https://example.com/${'a'.repeat(120)}?q=1`;
    render(<UrlCell url={url} />);
    const cell = screen.getByTitle(url);
    expect(cell).toHaveTextContent(`example.com/${'a'.repeat(120)}?q=1`);
    expect(cell).toHaveClass('text-truncate');
  });
});

const SHORT: Short = {
  id: '00000000-0000-4000-8000-000000000001',
  code: 'abc',
  name: 'Mein Link',
  url: 'https://example.com/seite',
  shortUrl: 'https://short.example/s/abc',
  domain: null,
  createdAt: '2026-01-01T00:00:00Z',
  expireAt: '2020-01-01T00:00:00Z',
  maxUses: 2,
  uses: 2,
  hasPassword: true,
  dangers: true,
  preview: null,
  owner: null,
  visits: 3,
};

describe('short badges', () => {
  it('names every state of the short', () => {
    render(<ShortBadges short={SHORT} />);
    expect(screen.getByTestId('short-badges')).toHaveTextContent(
      'AbgelaufenAufgebrauchtPasswortGefährlich',
    );
  });

  it('renders nothing for a plain short', () => {
    const { container } = render(
      <ShortBadges
        short={{ ...SHORT, expireAt: null, maxUses: null, hasPassword: false, dangers: false }}
      />,
    );
    expect(container).toBeEmptyDOMElement();
  });
});

describe('short cards', () => {
  it('one card per short with its link, badges and actions', () => {
    const onQr = vi.fn();
    const onEdit = vi.fn();
    const onDelete = vi.fn();
    render(<ShortCards rows={[SHORT]} onQr={onQr} onEdit={onEdit} onDelete={onDelete} />);
    const card = screen.getByTestId('short-card');
    expect(card).toHaveTextContent('Mein Link');
    expect(screen.getByRole('link', { name: 'abc' })).toHaveAttribute('href', '/s/abc/info');
    expect(card).toHaveTextContent('https://short.example/s/abc');
    expect(card).toHaveTextContent('Abgelaufen');
    fireEvent.click(screen.getByRole('button', { name: 'QR-Code von abc anzeigen' }));
    expect(onQr).toHaveBeenCalledWith(SHORT);
    fireEvent.click(screen.getByRole('button', { name: 'abc bearbeiten' }));
    expect(onEdit).toHaveBeenCalledWith(SHORT);
    fireEvent.click(screen.getByRole('button', { name: 'Short abc löschen' }));
    expect(onDelete).toHaveBeenCalledWith(SHORT);
    expect(screen.getByRole('button', { name: 'Link von abc kopieren' })).toBeEnabled();
  });
});
