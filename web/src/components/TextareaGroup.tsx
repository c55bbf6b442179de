import Form from 'react-bootstrap/Form';

/**
 * A labelled textarea. With `error` (also '' for none yet) it is validated: marked invalid while
 * the error has a text, which shows below it.
 */
export function TextareaGroup({
  id,
  label,
  rows,
  value,
  onChange,
  maxLength,
  error,
}: {
  id: string;
  label: string;
  rows: number;
  value: string;
  onChange: (value: string) => void;
  maxLength?: number;
  error?: string;
}) {
  const validated = error !== undefined;
  return (
    <Form.Group controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        as="textarea"
        rows={rows}
        maxLength={maxLength}
        value={value}
        isInvalid={validated ? Boolean(error) : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {validated && <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>}
    </Form.Group>
  );
}
