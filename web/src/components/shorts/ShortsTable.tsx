import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import type { Short } from '../../api/client';
import { ariaSort, type SortState } from '../../lib/table';
import { COLUMNS, type ShortColumn } from './columns';
import { RowActions } from './RowActions';
import { useT } from '../../i18n/context';

export interface ShortsTableProps {
  rows: readonly Short[];
  columns: readonly ShortColumn[];
  sort: SortState<ShortColumn>;
  onSort: (c: ShortColumn) => void;
  selected: ReadonlySet<string>;
  onSelect: (id: string, on: boolean) => void;
  onSelectAll: (on: boolean) => void;
  onDelete: (s: Short) => void;
  onEdit: (s: Short) => void;
  onQr: (s: Short) => void;
  onMove?: (s: Short) => void;
  /** A viewer's list: no selection, no edit, move or delete. */
  readOnly?: boolean;
}

/** The own shorts: selection, the visible columns (sortable by the server), compact row actions. */
export function ShortsTable({
  rows,
  columns,
  sort,
  onSort,
  selected,
  onSelect,
  onSelectAll,
  onDelete,
  onEdit,
  onQr,
  onMove,
  readOnly = false,
}: ShortsTableProps) {
  const { msg, t } = useT();
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.id));
  return (
    <Table hover className="align-middle shorts-table mb-3" data-testid="shorts-table">
      <thead>
        <tr>
          {!readOnly && (
            <th scope="col" style={{ width: '2.5rem' }}>
              <Form.Check
                id="select-all"
                aria-label={msg.shorts.selectAll}
                checked={allSelected}
                onChange={(e) => onSelectAll(e.target.checked)}
              />
            </th>
          )}
          {columns.map((c) => {
            const active = sort.field === c;
            if (COLUMNS[c].sortable === false) {
              return (
                <th key={c} scope="col" className="fw-semibold text-nowrap">
                  {COLUMNS[c].label}
                </th>
              );
            }
            return (
              <th key={c} scope="col" aria-sort={active ? ariaSort(sort, c) : undefined}>
                <button
                  type="button"
                  className="btn btn-link p-0 fw-semibold text-reset text-decoration-none text-nowrap"
                  onClick={() => onSort(c)}
                  title={t(msg.table.sortBy, { column: COLUMNS[c].label })}
                  data-testid={`sort-${c}`}
                >
                  {COLUMNS[c].label}
                  <span aria-hidden="true" className="ms-1">
                    {active ? (sort.dir === 'asc' ? '▲' : '▼') : '↕'}
                  </span>
                </button>
              </th>
            );
          })}
          <th scope="col" className="text-end text-nowrap">
            {msg.shorts.actions}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((s) => (
          <tr key={s.id} data-testid="short-row" data-code={s.code}>
            {!readOnly && (
              <td>
                <Form.Check
                  id={`select-${s.id}`}
                  aria-label={t(msg.shorts.selectRow, { code: s.code })}
                  checked={selected.has(s.id)}
                  onChange={(e) => onSelect(s.id, e.target.checked)}
                />
              </td>
            )}
            {columns.map((c) => (
              <td key={c} data-column={c}>
                {COLUMNS[c].cell(s)}
              </td>
            ))}
            <td className="text-end">
              <RowActions
                short={s}
                compact
                onQr={onQr}
                onEdit={onEdit}
                onDelete={onDelete}
                onMove={onMove}
                readOnly={readOnly}
              />
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
