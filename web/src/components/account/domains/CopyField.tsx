import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { copyLabel, useCopy } from '../useCopy';
import { useT } from '../../../i18n/context';

export function CopyField({ id, label, value }: { id: string; label: string; value: string }) {
  const { msg } = useT();
  const [state, copy] = useCopy();
  return (
    <Form.Group className="mb-2" controlId={id}>
      <Form.Label className="small mb-1">{label}</Form.Label>
      <InputGroup size="sm">
        <Form.Control readOnly className="font-monospace" value={value} />
        <Button
          variant={state === 'failed' ? 'outline-danger' : 'outline-secondary'}
          onClick={() => void copy(value)}
        >
          <span aria-live="polite">{copyLabel(state, msg.account, msg.account.copy)}</span>
        </Button>
      </InputGroup>
    </Form.Group>
  );
}
