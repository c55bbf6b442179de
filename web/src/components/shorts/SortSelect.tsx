import Form from 'react-bootstrap/Form';
import type { SortState } from '../../lib/table';
import { COLUMNS, type ShortColumn } from './columns';
import { useT } from '../../i18n/context';

/** The cards' sort order (the table sorts by its headers): every visible sortable column, both ways. */
export function SortSelect({
  columns,
  sort,
  onSort,
}: {
  columns: readonly ShortColumn[];
  sort: SortState<ShortColumn>;
  onSort: (sort: SortState<ShortColumn>) => void;
}) {
  const { msg, t } = useT();
  const sortable = columns.filter((c) => COLUMNS[c].sortable !== false);
  // The current order stays choosable even when its column is hidden.
  if (!sortable.includes(sort.field)) sortable.push(sort.field);
  return (
    <Form.Group controlId="shorts-sort">
      <Form.Label className="mb-1">{msg.shorts.sortBy}</Form.Label>
      <Form.Select
        value={`${sort.field},${sort.dir}`}
        onChange={(e) => {
          const [field, dir] = e.target.value.split(',') as [ShortColumn, 'asc' | 'desc'];
          onSort({ field, dir });
        }}
      >
        {sortable.flatMap((c) =>
          (['asc', 'desc'] as const).map((dir) => (
            <option key={`${c},${dir}`} value={`${c},${dir}`}>
              {t(dir === 'asc' ? msg.shorts.sortAsc : msg.shorts.sortDesc, {
                column: COLUMNS[c].label,
              })}
            </option>
          )),
        )}
      </Form.Select>
    </Form.Group>
  );
}
