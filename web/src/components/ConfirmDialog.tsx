import type { ReactNode } from 'react';
import Button, { type ButtonProps } from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useT } from '../i18n/context';

export interface ConfirmDialogProps {
  show: boolean;
  /** The dialog's id prefix: the title is `{id}-title` (the dialog's accessible name). */
  id: string;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  confirmVariant?: ButtonProps['variant'];
  cancelVariant?: ButtonProps['variant'];
  /** While the confirmed action runs, the confirm button is disabled. */
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** The one confirmation question before a destructive action: title, text, cancel and confirm. */
export function ConfirmDialog({
  show,
  id,
  title,
  children,
  confirmLabel,
  cancelLabel,
  confirmVariant = 'danger',
  cancelVariant = 'secondary',
  busy = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const { msg } = useT();
  return (
    <Modal show={show} onHide={onCancel} aria-labelledby={`${id}-title`}>
      <Modal.Header closeButton closeLabel={msg.toasts.close}>
        <Modal.Title id={`${id}-title`}>{title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>{children}</Modal.Body>
      <Modal.Footer>
        <Button variant={cancelVariant} onClick={onCancel}>
          {cancelLabel}
        </Button>
        <Button variant={confirmVariant} onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
