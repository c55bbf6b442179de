import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { auth } from '../../state/auth';
import { adminEntity, adminField, editableField, resetAfterEach } from '../../test-fixtures';
import AdminPage from '../../pages/AdminPage';
import { EntityCards } from './EntityCards';
import { EntityTable } from './EntityTable';
import { displayFields, entityLabel, isIdField } from './labels';

// Issue 40, item 11: the admin tables start with a name (ids last), turn into cards where they do
// not fit, name the domains in German, and /admin tells a non-admin why there is nothing.

resetAfterEach();

const domains = adminEntity('domains', 'Own domains', [
  adminField('id', 'keyword'),
  adminField('host', 'text'),
  adminField('ownerId', 'keyword'),
  adminField('owner', 'text', { sortable: false }),
  editableField('enabled', 'boolean'),
  adminField('failReason', 'keyword', { nullable: true }),
]);
const ROW = {
  id: '00000000-0000-4000-8000-00000000000d',
  host: 'links.example',
  ownerId: '00000000-0000-4000-8000-0000000000aa',
  owner: 'anna',
  enabled: true,
  failReason: null,
};
const none = () => undefined;

describe('admin fields', () => {
  it('ids go last, in their order', () => {
    expect(isIdField('id')).toBe(true);
    expect(isIdField('shortId')).toBe(true);
    expect(isIdField('providerUserId')).toBe(true);
    expect(isIdField('valid')).toBe(false);
    expect(displayFields(domains.fields).map((f) => f.name)).toEqual([
      'host',
      'owner',
      'enabled',
      'failReason',
      'id',
      'ownerId',
    ]);
  });

  it('the domains are named in German', () => {
    expect(entityLabel('domains')).toBe('Domains');
  });
});

describe('admin table', () => {
  it('starts with the actions (icons named Bearbeiten and Löschen) and the host, the ids last', () => {
    render(
      <EntityTable
        entity={domains}
        rows={[ROW]}
        sort={null}
        onSort={none}
        onSortChange={none}
        onEdit={none}
        onDelete={none}
      />,
    );
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual([
      'Aktionen',
      'Host',
      'Ersteller',
      'Aktiv',
      'Letzter Fehler',
      'ID',
      'Ersteller-ID',
    ]);
    expect(screen.getByRole('button', { name: 'Bearbeiten' })).toHaveAttribute(
      'title',
      'Bearbeiten',
    );
    expect(screen.getByRole('button', { name: 'Löschen' })).toHaveTextContent(/^$/);
  });
});

describe('admin cards', () => {
  it('each row with its actions and every field by name; a select sorts', () => {
    const onSort = vi.fn();
    const onDelete = vi.fn();
    render(
      <EntityCards
        entity={domains}
        rows={[ROW]}
        sort={null}
        onSort={onSort}
        onEdit={none}
        onDelete={onDelete}
      />,
    );
    const card = screen.getByTestId(`admin-row-${ROW.id}`);
    expect(card.querySelector('[data-field="host"]')).toHaveTextContent('links.example');
    expect(card.querySelector('[data-field="failReason"]')).toHaveTextContent('–');
    expect(card.querySelector('[data-field="enabled"]')).toHaveTextContent('Ja');
    expect([...card.querySelectorAll('dt')].map((d) => d.textContent)[0]).toBe('Host');
    fireEvent.click(screen.getByRole('button', { name: 'Löschen' }));
    expect(onDelete).toHaveBeenCalledWith(ROW);

    const select = screen.getByLabelText('Sortieren nach');
    expect(select).toHaveValue('');
    // Owner (not sortable) is not offered.
    expect(select).not.toHaveTextContent('Ersteller,');
    fireEvent.change(select, { target: { value: 'host,desc' } });
    expect(onSort).toHaveBeenCalledWith({ field: 'host', dir: 'desc' });
    fireEvent.change(select, { target: { value: '' } });
    expect(onSort).toHaveBeenLastCalledWith(null);
  });
});

describe('/admin for a non-admin', () => {
  it('says that the area is for administrators and leads to the start page', () => {
    auth.status = 'authenticated';
    auth.user = { authorities: ['ROLE_USER'] } as unknown as typeof auth.user;
    render(<AdminPage />);
    expect(screen.getByRole('heading', { name: 'Kein Zugang' })).toBeInTheDocument();
    expect(screen.getByText(/nur für Administratoren/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Zur Startseite' })).toHaveAttribute('href', '/');
  });
});
