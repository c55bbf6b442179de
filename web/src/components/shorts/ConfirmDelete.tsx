import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { de } from '../../i18n/de';

export function ConfirmDelete({
  text,
  busy,
  onConfirm,
  onCancel,
}: {
  text: string | null;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal show={text !== null} onHide={onCancel} aria-labelledby="confirm-delete-title">
      <Modal.Header closeButton closeLabel={de.toasts.close}>
        <Modal.Title id="confirm-delete-title">{de.shorts.confirmTitle}</Modal.Title>
      </Modal.Header>
      <Modal.Body>{text}</Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onCancel}>
          {de.shorts.cancel}
        </Button>
        <Button variant="danger" onClick={onConfirm} disabled={busy}>
          {de.shorts.confirm}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
