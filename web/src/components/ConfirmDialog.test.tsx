import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './ConfirmDialog';

afterEach(() => {
  cleanup();
});

function dialog(props: Partial<Parameters<typeof ConfirmDialog>[0]> = {}) {
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  render(
    <ConfirmDialog
      id="probe"
      show
      title="Löschen bestätigen"
      confirmLabel="Endgültig löschen"
      cancelLabel="Abbrechen"
      onConfirm={onConfirm}
      onCancel={onCancel}
      {...props}
    >
      Möchtest du den Short abc wirklich löschen?
    </ConfirmDialog>,
  );
  return { onConfirm, onCancel };
}

describe('confirm dialog', () => {
  it('is named by its title, asks its question and confirms only on the confirm button', () => {
    const { onConfirm, onCancel } = dialog();
    const d = screen.getByRole('dialog', { name: 'Löschen bestätigen' });
    expect(d).toHaveTextContent('Möchtest du den Short abc wirklich löschen?');
    fireEvent.click(screen.getByRole('button', { name: 'Endgültig löschen' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onCancel).not.toHaveBeenCalled();
  });

  it('cancel and the close button cancel', () => {
    const { onConfirm, onCancel } = dialog();
    fireEvent.click(screen.getByRole('button', { name: 'Abbrechen' }));
    fireEvent.click(screen.getByRole('button', { name: 'Schließen' }));
    expect(onCancel).toHaveBeenCalledTimes(2);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('while busy the confirm button is disabled; hidden it shows nothing', () => {
    dialog({ busy: true });
    expect(screen.getByRole('button', { name: 'Endgültig löschen' })).toBeDisabled();
    cleanup();
    dialog({ show: false });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
