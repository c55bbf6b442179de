import Dropdown from 'react-bootstrap/Dropdown';
import Form from 'react-bootstrap/Form';
import { canHideColumn } from '../../lib/table';
import { COLUMNS, SHORT_COLUMNS, type ShortColumn } from './columns';
import { useT } from '../../i18n/context';

/** Shows or hides columns; the last visible column cannot be switched off. */
export function ColumnFilter({
  visible,
  onToggle,
}: {
  visible: readonly ShortColumn[];
  onToggle: (c: ShortColumn) => void;
}) {
  const { msg } = useT();
  return (
    <Dropdown autoClose="outside">
      <Dropdown.Toggle variant="outline-secondary" id="column-filter">
        {msg.shorts.columnFilter}
      </Dropdown.Toggle>
      <Dropdown.Menu className="px-3 py-2">
        {SHORT_COLUMNS.map((c) => (
          <Form.Check
            key={c}
            type="switch"
            id={`column-${c}`}
            label={COLUMNS[c].label}
            checked={visible.includes(c)}
            disabled={!canHideColumn(visible, c)}
            onChange={() => onToggle(c)}
          />
        ))}
      </Dropdown.Menu>
    </Dropdown>
  );
}
