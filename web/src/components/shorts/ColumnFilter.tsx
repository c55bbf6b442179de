import Dropdown from 'react-bootstrap/Dropdown';
import Form from 'react-bootstrap/Form';
import { msg } from '../../i18n/current';
import { canHideColumn } from '../../lib/table';
import { COLUMNS, SHORT_COLUMNS, type ShortColumn } from './columns';

/** Shows or hides columns; the last visible column cannot be switched off. */
export function ColumnFilter({
  visible,
  onToggle,
}: {
  visible: readonly ShortColumn[];
  onToggle: (c: ShortColumn) => void;
}) {
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
