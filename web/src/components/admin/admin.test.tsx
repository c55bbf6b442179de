import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { admin, openEntityDialog } from '../../state/admin';
import {
  adminEntity,
  adminField,
  editableField,
  resetAfterEach,
  stubFetch,
  toastTexts,
} from '../../test-fixtures';
import { renderWithQueries } from '../../test-utils';
import { AdminSidebar } from './AdminSidebar';
import { EntityDialog } from './EntityDialog';

const shorts = adminEntity('shorts', 'Short links', [
  adminField('id', 'keyword', { description: 'UUID' }),
  adminField('code', 'keyword'),
  editableField('name', 'text', { nullable: true }),
  editableField('dangerous', 'boolean'),
]);

// After-each hooks run last-registered first: the reset (which unmounts) must run before the dialog
// is closed, or the close starts a transition whose timer outlives the test environment.
afterEach(() => {
  admin.entityDialog.open = false;
});
resetAfterEach();

const texts = toastTexts;

describe('admin sidebar', () => {
  it('lists the entities in German and the management sections', () => {
    const onSelect = vi.fn();
    render(<AdminSidebar entities={[shorts]} current="shorts" onSelect={onSelect} />);
    const nav = screen.getByRole('navigation', { name: 'Admin-Navigation' });
    expect(nav).toHaveTextContent('Shorts');
    expect(screen.getByRole('link', { name: 'Shorts' })).toHaveAttribute('aria-current', 'page');
    for (const s of ['Zustand', 'Info', 'Logger', 'Logs'])
      expect(screen.getByRole('link', { name: s })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('link', { name: 'Logger' }));
    expect(onSelect).toHaveBeenCalledWith('loggers');
  });
});

/** The edit dialog, opened on the short a1 ('abc', named 'Alt'). */
function openShortDialog() {
  renderWithQueries(<EntityDialog entities={[shorts]} />);
  act(() => openEntityDialog('shorts', { id: 'a1', code: 'abc', name: 'Alt', dangerous: false }));
}

/** Types `name` into the open dialog's Name field and saves. */
async function saveName(name: string) {
  fireEvent.change(await screen.findByLabelText('Name'), { target: { value: name } });
  fireEvent.click(screen.getByRole('button', { name: 'Speichern' }));
}

/** The dialog on a1 saves `name`; the server refuses with `problem` (its status the answer's). */
async function refusedSave(name: string, problem: { status: number } & Record<string, unknown>) {
  stubFetch(problem.status, problem);
  openShortDialog();
  await saveName(name);
}

describe('admin edit dialog', () => {
  it('sends only the changed fields with PUT and reports success', async () => {
    const calls = stubFetch(200, { id: 'a1' });
    openShortDialog();
    const name = await screen.findByLabelText('Name');
    expect(name).toHaveValue('Alt');
    expect(screen.getByText('abc')).toBeInTheDocument(); // read-only code
    fireEvent.change(name, { target: { value: 'Neu' } });
    fireEvent.click(screen.getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(texts()).toContain('Der Eintrag wurde gespeichert.'));
    expect(calls).toEqual([
      { method: 'PUT', url: '/api/admin/entity/shorts/a1', body: JSON.stringify({ name: 'Neu' }) },
    ]);
    expect(admin.entityDialog.open).toBe(false);
  });

  it('shows the server problem in German at its field and keeps the dialog open', async () => {
    await refusedSave('x'.repeat(101), {
      status: 400,
      detail: 'Validation failed',
      errorKey: 'validation_failed',
      fieldErrors: { name: 'must be at most 100 characters' },
      fieldErrorKeys: { name: 'name_too_long' },
    });
    expect(
      await screen.findByText('Der Name ist zu lang (höchstens 100 Zeichen)'),
    ).toBeInTheDocument();
    expect(screen.getByText('Der Eintrag konnte nicht gespeichert werden.')).toBeInTheDocument();
    expect(screen.queryByText('Validation failed')).toBeNull();
    expect(admin.entityDialog.open).toBe(true);
  });

  it("says a key's text, in the admin's words, when no field is at fault", async () => {
    await refusedSave('Neu', {
      status: 404,
      detail: 'Entity shorts not exists',
      errorKey: 'entity_not_exists',
    });
    expect(await screen.findByText('Der Eintrag existiert nicht.')).toBeInTheDocument();
    expect(admin.entityDialog.open).toBe(true);
  });
});
