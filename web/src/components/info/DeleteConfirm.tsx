import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useT } from '../../i18n/context';

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
  const { msg } = useT();
  return (
    <Alert variant="danger">
      <p>{msg.info.deleteConfirm}</p>
      <div className="d-flex gap-2">
        <Button variant="danger" disabled={busy} onClick={onConfirm}>
          {msg.info.deleteFinal}
        </Button>
        <Button variant="outline-secondary" onClick={onCancel}>
          {msg.info.cancel}
        </Button>
      </div>
    </Alert>
  );
}
