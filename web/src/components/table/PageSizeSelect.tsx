import Form from 'react-bootstrap/Form';
import { PAGE_SIZES } from '../../lib/table';
import { useT } from '../../i18n/context';

/** 'Einträge pro Seite' with the sizes of every table. */
export function PageSizeSelect({
  id,
  size,
  onSize,
}: {
  id: string;
  size: number;
  onSize: (size: number) => void;
}) {
  const { msg } = useT();
  return (
    <Form.Group controlId={id} className="d-flex gap-2 align-items-center">
      <Form.Label className="mb-0 text-nowrap">{msg.table.pageSize}</Form.Label>
      <Form.Select
        size="sm"
        style={{ width: 'auto' }}
        value={size}
        onChange={(e) => onSize(Number(e.target.value))}
      >
        {PAGE_SIZES.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </Form.Select>
    </Form.Group>
  );
}
