import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { cellText, rowId, type AdminEntity, type AdminRow } from '../../lib/admin';
import { ariaSort, type SortState } from '../../lib/table';
import { cellLabels, fieldLabel } from './labels';
import { useT } from '../../i18n/context';

/** The rows of an admin entity: actions first, then every field; sortable headers sort on the server. */
export function EntityTable({
  entity,
  rows,
  sort,
  onSort,
  onEdit,
  onDelete,
}: {
  entity: AdminEntity;
  rows: readonly AdminRow[];
  sort: SortState | null;
  onSort: (field: string) => void;
  onEdit: (row: AdminRow) => void;
  onDelete: (row: AdminRow) => void;
}) {
  const { msg, t } = useT();
  const editable = entity.fields.some((f) => f.editable);
  return (
    <Table striped hover responsive size="sm" className="admin-table align-middle">
      <thead>
        <tr>
          <th scope="col">{msg.admin.actions}</th>
          {entity.fields.map((f) => (
            <th key={f.name} scope="col" aria-sort={ariaSort(sort, f.name)} title={f.description}>
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
                fieldLabel(f.name)
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
                    className="me-1"
                    onClick={() => onEdit(row)}
                  >
                    {msg.admin.edit}
                  </Button>
                )}
                {entity.deletable && (
                  <Button size="sm" variant="outline-danger" onClick={() => onDelete(row)}>
                    {msg.admin.delete}
                  </Button>
                )}
              </td>
              {entity.fields.map((f) => {
                const text = cellText(f, row[f.name], cellLabels(msg));
                return (
                  <td
                    key={f.name}
                    className="text-truncate"
                    style={{ maxWidth: 280 }}
                    title={text.length > 40 ? text : undefined}
                  >
                    {text}
                  </td>
                );
              })}
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}
