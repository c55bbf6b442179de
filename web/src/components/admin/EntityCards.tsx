import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { cellText, rowId, type AdminEntity, type AdminRow } from '../../lib/admin';
import type { SortState } from '../../lib/table';
import { DeleteIcon, EditIcon } from '../shorts/icons';
import { cellLabels, displayFields, fieldLabel } from './labels';
import { useT } from '../../i18n/context';

const NO_SORT = '';

/**
 * The rows of an admin entity as cards, where its table does not fit (many fields, a narrow
 * window): each row's actions on top, then every field as name and value. A select replaces the
 * table's sortable headers.
 */
export function EntityCards({
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
  onSort: (sort: SortState | null) => void;
  onEdit: (row: AdminRow) => void;
  onDelete: (row: AdminRow) => void;
}) {
  const { msg, t } = useT();
  const editable = entity.fields.some((f) => f.editable);
  const fields = displayFields(entity.fields);
  const sortable = fields.filter((f) => f.sortable);
  const labels = cellLabels(msg);
  return (
    <>
      {sortable.length > 0 && (
        <Form.Group controlId={`admin-sort-${entity.name}`} className="mb-2 admin-sort">
          <Form.Label className="mb-1">{msg.admin.sortBy}</Form.Label>
          <Form.Select
            value={sort ? `${sort.field},${sort.dir}` : NO_SORT}
            onChange={(e) => {
              if (e.target.value === NO_SORT) return onSort(null);
              const [field, dir] = e.target.value.split(',') as [string, 'asc' | 'desc'];
              onSort({ field, dir });
            }}
          >
            <option value={NO_SORT}>{msg.admin.sortDefault}</option>
            {sortable.flatMap((f) =>
              (['asc', 'desc'] as const).map((dir) => (
                <option key={`${f.name},${dir}`} value={`${f.name},${dir}`}>
                  {t(dir === 'asc' ? msg.admin.sortAsc : msg.admin.sortDesc, {
                    column: fieldLabel(f.name),
                  })}
                </option>
              )),
            )}
          </Form.Select>
        </Form.Group>
      )}
      <ul className="admin-cards list-unstyled mb-3" data-testid="admin-cards">
        {rows.map((row) => {
          const id = rowId(entity, row);
          return (
            <li key={id}>
              <Card className="h-100" data-testid={`admin-row-${id}`}>
                <Card.Body className="p-3">
                  {(editable || entity.deletable) && (
                    <div className="d-flex flex-wrap gap-2 mb-2">
                      {editable && (
                        <Button
                          size="sm"
                          variant="outline-primary"
                          className="d-inline-flex align-items-center gap-1"
                          onClick={() => onEdit(row)}
                        >
                          <EditIcon />
                          {msg.admin.edit}
                        </Button>
                      )}
                      {entity.deletable && (
                        <Button
                          size="sm"
                          variant="outline-danger"
                          className="d-inline-flex align-items-center gap-1"
                          onClick={() => onDelete(row)}
                        >
                          <DeleteIcon />
                          {msg.admin.delete}
                        </Button>
                      )}
                    </div>
                  )}
                  <dl className="admin-card-fields small mb-0">
                    {fields.map((f) => {
                      const text = cellText(f, row[f.name], labels);
                      return (
                        <div key={f.name}>
                          <dt title={f.description}>{fieldLabel(f.name)}</dt>
                          <dd className="text-break" data-field={f.name}>
                            {text}
                          </dd>
                        </div>
                      );
                    })}
                  </dl>
                </Card.Body>
              </Card>
            </li>
          );
        })}
      </ul>
    </>
  );
}
