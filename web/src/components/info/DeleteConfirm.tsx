import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { de } from '../../i18n/de';

/** The inline delete question of the info page (?show_delete=true). */
export function DeleteConfirm({
  busy,
  onConfirm,
  onCancel,
}: {
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Alert variant="danger">
      <p>{de.info.deleteConfirm}</p>
      <div className="d-flex gap-2">
        <Button variant="danger" disabled={busy} onClick={onConfirm}>
          {de.info.deleteFinal}
        </Button>
        <Button variant="outline-secondary" onClick={onCancel}>
          {de.info.cancel}
        </Button>
      </div>
    </Alert>
  );
}
