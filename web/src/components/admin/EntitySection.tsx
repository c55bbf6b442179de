import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { useDeleteEntity, useEntitySearch, type EntitySearch } from '../../api/queries/admin';
import { rowId, type AdminEntity, type AdminRow } from '../../lib/admin';
import { errorText } from '../../lib/errors';
import { DEFAULT_PAGE_SIZE, nextSort, pageBeyondEnd } from '../../lib/table';
import { openEntityDialog } from '../../state/admin';
import { toast } from '../../state/toasts';
import { ConfirmDialog } from '../ConfirmDialog';
import { PageSizeSelect } from '../table/PageSizeSelect';
import { Pager } from '../table/Pager';
import { EntitySearchForm } from './EntitySearchForm';
import { EntityTable } from './EntityTable';
import { entityLabel } from './labels';
import { useT } from '../../i18n/context';

/** One entity of the admin API: query-string search, sortable columns, paging, edit and delete. */
export function EntitySection({ entity }: { entity: AdminEntity }) {
  const { msg, t } = useT();
  const [view, setView] = useState<EntitySearch>({
    query: '',
    page: 0,
    size: DEFAULT_PAGE_SIZE,
    sort: null,
  });
  const [deleting, setDeleting] = useState<AdminRow | null>(null);
  const search = useEntitySearch(entity.name, view);
  const remove = useDeleteEntity();

  // After a delete the page may be past the end: go to the last one.
  const beyond =
    search.data && !search.isPlaceholderData
      ? pageBeyondEnd(view.page, search.data.totalPages)
      : null;
  if (beyond !== null) setView({ ...view, page: beyond });
  const data = search.isError || beyond !== null ? undefined : search.data;
  const error = search.isError
    ? t(view.query ? msg.admin.searchError : msg.admin.loadError, {
        detail: errorText(search.error, undefined, msg.admin.errors),
      })
    : null;

  async function confirmDelete() {
    const row = deleting;
    setDeleting(null);
    if (!row) return;
    try {
      await remove.mutateAsync({
        params: { path: { entity: entity.name, id: rowId(entity, row) } },
      });
      toast.success(msg.admin.deleted);
    } catch (err) {
      toast.error(`${msg.admin.deleteFailed} ${errorText(err, '', msg.admin.errors)}`.trim());
    }
  }

  const searchId = `admin-search-${entity.name}`;
  return (
    <section aria-labelledby={`admin-${entity.name}-title`}>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <h2 id={`admin-${entity.name}-title`} className="h4 mb-0 me-auto">
          {entityLabel(entity.name)}
        </h2>
        {entity.creatable && (
          <Button
            variant="outline-primary"
            size="sm"
            onClick={() => openEntityDialog(entity.name, null, 'create')}
          >
            {msg.admin.create}
          </Button>
        )}
      </div>
      <p className="text-body-secondary">
        {msg.admin.entityIntro[entity.name] ?? entity.description}
      </p>
      <EntitySearchForm
        id={searchId}
        onSearch={(query) => setView((v) => ({ ...v, query, page: 0 }))}
      />
      {error && <Alert variant="danger">{error}</Alert>}
      {!data && !error && <Spinner animation="border" role="status" />}
      {data && (
        <>
          <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
            <span data-testid="admin-total">
              {t(msg.admin.results, { total: data.totalElements })}
            </span>
            {search.isFetching && <Spinner animation="border" size="sm" role="status" />}
          </div>
          {data.empty ? (
            <p>{view.query ? msg.admin.noMatch : msg.admin.empty}</p>
          ) : (
            <EntityTable
              entity={entity}
              rows={data.content}
              sort={view.sort}
              onSort={(field) =>
                setView((v) => ({
                  ...v,
                  page: 0,
                  sort: nextSort(v.sort, field, { clearable: true }),
                }))
              }
              onSortChange={(sort) => setView((v) => ({ ...v, page: 0, sort }))}
              onEdit={(row) => openEntityDialog(entity.name, row, 'edit')}
              onDelete={setDeleting}
            />
          )}
          <div className="d-flex flex-wrap align-items-center gap-2">
            <PageSizeSelect
              id={`${searchId}-size`}
              size={view.size}
              onSize={(size) => setView((v) => ({ ...v, size, page: 0 }))}
            />
            <Pager
              variant="steps"
              summaryTestId="admin-page"
              page={data.number + 1}
              pageCount={data.totalPages}
              onPage={(p) => setView((v) => ({ ...v, page: p - 1 }))}
            />
          </div>
        </>
      )}
      <ConfirmDialog
        id="admin-delete"
        show={deleting !== null}
        title={msg.admin.deleteTitle}
        confirmLabel={msg.admin.deleteFinal}
        cancelLabel={msg.admin.cancel}
        cancelVariant="outline-secondary"
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      >
        <p>{msg.admin.deleteConfirm}</p>
        {deleting && (
          <p className="mb-0 text-break">
            <code>{rowId(entity, deleting)}</code>
          </p>
        )}
      </ConfirmDialog>
    </section>
  );
}
