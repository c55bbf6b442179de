import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { cellText, rowId, type AdminEntity, type AdminRow } from '../../lib/admin';
import { ariaSort, type SortState } from '../../lib/table';
import { DeleteIcon, EditIcon } from '../shorts/icons';
import { useTableFit } from '../shorts/useTableFit';
import { EntityCards } from './EntityCards';
import { cellLabels, displayFields, fieldLabel } from './labels';
import { useT } from '../../i18n/context';

/**
 * The rows of an admin entity: a table (actions first, then the fields, ids last; sortable headers
 * sort on the server), or cards where the table does not fit its place.
 */
export function EntityTable({
  entity,
  rows,
  sort,
  onSort,
  onSortChange,
  onEdit,
  onDelete,
}: {
  entity: AdminEntity;
  rows: readonly AdminRow[];
  sort: SortState | null;
  /** A sortable header was clicked (the next order of that field). */
  onSort: (field: string) => void;
  /** The cards' select chose an order (null: the entity's default). */
  onSortChange: (sort: SortState | null) => void;
  onEdit: (row: AdminRow) => void;
  onDelete: (row: AdminRow) => void;
}) {
  const { msg, t, lang } = useT();
  const { attach, fits } = useTableFit([entity, rows, lang]);
  const editable = entity.fields.some((f) => f.editable);
  const fields = displayFields(entity.fields);
  return (
    <div ref={attach} className="admin-fit" data-layout={fits ? 'table' : 'cards'}>
      {fits ? (
        <Table striped hover size="sm" className="admin-table align-middle">
          <thead>
            <tr>
              <th scope="col" className="text-nowrap">
                {msg.admin.actions}
              </th>
              {fields.map((f) => (
                <th
                  key={f.name}
                  scope="col"
                  aria-sort={ariaSort(sort, f.name)}
                  title={f.description}
                >
                  {f.sortable ? (
                    <button
                      type="button"
                      className="btn btn-link btn-sm p-0 text-reset text-nowrap fw-semibold text-decoration-none"
                      aria-label={t(msg.table.sortBy, { column: fieldLabel(f.name) })}
                      onClick={() => onSort(f.name)}
                    >
                      {fieldLabel(f.name)}
                      {sort?.field === f.name ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
                    </button>
                  ) : (
                    <span className="text-nowrap">{fieldLabel(f.name)}</span>
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const id = rowId(entity, row);
              return (
                <tr key={id} data-testid={`admin-row-${id}`}>
                  <td className="text-nowrap">
                    {editable && (
                      <Button
                        size="sm"
                        variant="outline-primary"
                        className="btn-icon d-inline-flex align-items-center me-1"
                        aria-label={msg.admin.edit}
                        title={msg.admin.edit}
                        onClick={() => onEdit(row)}
                      >
                        <EditIcon />
                      </Button>
                    )}
                    {entity.deletable && (
                      <Button
                        size="sm"
                        variant="outline-danger"
                        className="btn-icon d-inline-flex align-items-center"
                        aria-label={msg.admin.delete}
                        title={msg.admin.delete}
                        onClick={() => onDelete(row)}
                      >
                        <DeleteIcon />
                      </Button>
                    )}
                  </td>
                  {fields.map((f) => {
                    const text = cellText(f, row[f.name], cellLabels(msg));
                    return (
                      <td key={f.name} data-field={f.name}>
                        <div
                          className="admin-cell text-truncate"
                          title={text.length > 24 ? text : undefined}
                        >
                          {text}
                        </div>
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </Table>
      ) : (
        <EntityCards
          entity={entity}
          rows={rows}
          sort={sort}
          onSort={onSortChange}
          onEdit={onEdit}
          onDelete={onDelete}
        />
      )}
    </div>
  );
}
