import Form from 'react-bootstrap/Form';
import { useT } from '../../../i18n/context';

/** One redirect of a domain: an absolute URL, empty for this service's page. */
export function RedirectField(p: {
  id: string;
  label: string;
  help: string;
  value: string;
  onChange: (v: string) => void;
}) {
  const { msg } = useT();
  return (
    <Form.Group className="mb-2" controlId={p.id}>
      <Form.Label className="small mb-1">{p.label}</Form.Label>
      <Form.Control
        size="sm"
        type="url"
        value={p.value}
        placeholder={msg.domains.redirectPlaceholder}
        onChange={(e) => p.onChange(e.target.value)}
        aria-describedby={`${p.id}-help`}
      />
      <Form.Text id={`${p.id}-help`}>{p.help}</Form.Text>
    </Form.Group>
  );
}
