import { useEffect, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { useSnapshot } from 'valtio';
import { api, unwrap, type Schemas } from '../../api/client';
import { de, t } from '../../i18n/de';
import {
  ADMIN_DEFAULT_PAGE_SIZE,
  ADMIN_PAGE_SIZES,
  ariaSort,
  cellText,
  clampPage,
  nextSort,
  rowId,
  searchQuery,
  type AdminEntity,
  type AdminRow,
  type SortState,
} from '../../lib/admin';
import { errorDetail } from '../../lib/errors';
import { admin, openEntityDialog } from '../../state/admin';
import { toast } from '../../state/toasts';

type Page = Schemas['AdminPageDto'];

export function fieldLabel(name: string): string {
  return de.admin.fields[name] ?? name;
}

export function entityLabel(name: string): string {
  return de.admin.entities[name] ?? name;
}

const CELL_LABELS = { yes: de.admin.yes, no: de.admin.no, empty: de.admin.none };

/** One entity of the admin API: query-string search, sortable columns, paging, edit and delete. */
export function EntitySection({ entity }: { entity: AdminEntity }) {
  const a = useSnapshot(admin);
  const [input, setInput] = useState('');
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(0);
  const [size, setSize] = useState<number>(ADMIN_DEFAULT_PAGE_SIZE);
  const [sort, setSort] = useState<SortState | null>(null);
  const [data, setData] = useState<Page | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [deleting, setDeleting] = useState<AdminRow | null>(null);
  const editable = entity.fields.some((f) => f.editable);

  useEffect(() => {
    let live = true;
    setLoading(true);
    unwrap(
      api.POST('/api/admin/entity/{entity}/search', {
        params: { path: { entity: entity.name }, query: searchQuery(page, size, sort) },
        body: { query_string: { query } },
      }),
    )
      .then((p) => {
        if (!live) return;
        // After a delete the page may be past the end: go to the last one.
        if (p.totalPages > 0 && page >= p.totalPages) return setPage(clampPage(page, p.totalPages));
        setData(p);
        setError(null);
      })
      .catch((err: unknown) => {
        if (!live) return;
        setData(null);
        setError(
          t(query ? de.admin.searchError : de.admin.loadError, {
            detail: errorDetail(err) ?? de.error.unknown,
          }),
        );
      })
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [entity.name, query, page, size, sort, a.version]);

  function submit(e: FormEvent) {
    e.preventDefault();
    setPage(0);
    setQuery(input.trim());
  }

  async function confirmDelete() {
    const row = deleting;
    setDeleting(null);
    if (!row) return;
    try {
      await unwrap(
        api.DELETE('/api/admin/entity/{entity}/{id}', {
          params: { path: { entity: entity.name, id: rowId(entity, row) } },
        }),
      );
      toast.success(de.admin.deleted);
      admin.version++;
    } catch (err) {
      toast.error(`${de.admin.deleteFailed} ${errorDetail(err) ?? ''}`.trim());
    }
  }

  const label = entityLabel(entity.name);
  const searchId = `admin-search-${entity.name}`;
  return (
    <section aria-labelledby={`admin-${entity.name}-title`}>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <h2 id={`admin-${entity.name}-title`} className="h4 mb-0 me-auto">
          {label}
        </h2>
        {entity.creatable && (
          <Button
            variant="outline-primary"
            size="sm"
            onClick={() => openEntityDialog(entity.name, null, 'create')}
          >
            {de.admin.create}
          </Button>
        )}
      </div>
      <p className="text-body-secondary">
        {de.admin.entityIntro[entity.name] ?? entity.description}
      </p>
      <Form onSubmit={submit} className="mb-3" role="search">
        <Form.Label htmlFor={searchId}>{de.admin.search}</Form.Label>
        <InputGroup>
          <Form.Control
            id={searchId}
            value={input}
            placeholder={de.admin.searchPlaceholder}
            aria-describedby={`${searchId}-help`}
            onChange={(e) => setInput(e.target.value)}
          />
          <Button type="submit" variant="primary">
            {de.admin.searchSubmit}
          </Button>
        </InputGroup>
        <Form.Text id={`${searchId}-help`}>{de.admin.searchHelp}</Form.Text>
      </Form>
      {error && <Alert variant="danger">{error}</Alert>}
      {!data && !error && <Spinner animation="border" role="status" />}
      {data && (
        <>
          <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
            <span data-testid="admin-total">
              {t(de.admin.results, { total: data.totalElements })}
            </span>
            {loading && <Spinner animation="border" size="sm" role="status" />}
          </div>
          {data.empty ? (
            <p>{query ? de.admin.noMatch : de.admin.empty}</p>
          ) : (
            <Table striped hover responsive size="sm" className="admin-table align-middle">
              <thead>
                <tr>
                  <th scope="col">{de.admin.actions}</th>
                  {entity.fields.map((f) => (
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
                          aria-label={t(de.admin.sortBy, { field: fieldLabel(f.name) })}
                          onClick={() => {
                            setPage(0);
                            setSort(nextSort(sort, f.name));
                          }}
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
                {data.content.map((row) => {
                  const id = rowId(entity, row);
                  return (
                    <tr key={id} data-testid={`admin-row-${id}`}>
                      <td className="text-nowrap">
                        {editable && (
                          <Button
                            size="sm"
                            variant="outline-primary"
                            className="me-1"
                            onClick={() => openEntityDialog(entity.name, row, 'edit')}
                          >
                            {de.admin.edit}
                          </Button>
                        )}
                        {entity.deletable && (
                          <Button
                            size="sm"
                            variant="outline-danger"
                            onClick={() => setDeleting(row)}
                          >
                            {de.admin.delete}
                          </Button>
                        )}
                      </td>
                      {entity.fields.map((f) => {
                        const text = cellText(f, row[f.name], CELL_LABELS);
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
          )}
          <div className="d-flex flex-wrap align-items-center gap-2">
            <Form.Label htmlFor={`${searchId}-size`} className="mb-0">
              {de.admin.pageSize}
            </Form.Label>
            <Form.Select
              id={`${searchId}-size`}
              size="sm"
              style={{ width: 'auto' }}
              value={size}
              onChange={(e) => {
                setPage(0);
                setSize(Number(e.target.value));
              }}
            >
              {ADMIN_PAGE_SIZES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </Form.Select>
            <nav aria-label={de.admin.paging} className="ms-auto d-flex align-items-center gap-2">
              <Button
                size="sm"
                variant="outline-secondary"
                disabled={data.first}
                onClick={() => setPage(page - 1)}
                aria-label={de.admin.previous}
              >
                ‹
              </Button>
              <span data-testid="admin-page">
                {t(de.admin.pageOf, { page: data.number + 1, pages: Math.max(1, data.totalPages) })}
              </span>
              <Button
                size="sm"
                variant="outline-secondary"
                disabled={data.last}
                onClick={() => setPage(page + 1)}
                aria-label={de.admin.next}
              >
                ›
              </Button>
            </nav>
          </div>
        </>
      )}
      <Modal
        show={Boolean(deleting)}
        onHide={() => setDeleting(null)}
        aria-labelledby="admin-delete-title"
      >
        <Modal.Header closeButton closeLabel={de.admin.close}>
          <Modal.Title id="admin-delete-title">{de.admin.deleteTitle}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p>{de.admin.deleteConfirm}</p>
          {deleting && (
            <p className="mb-0 text-break">
              <code>{rowId(entity, deleting)}</code>
            </p>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={() => setDeleting(null)}>
            {de.admin.cancel}
          </Button>
          <Button variant="danger" onClick={() => void confirmDelete()}>
            {de.admin.deleteFinal}
          </Button>
        </Modal.Footer>
      </Modal>
    </section>
  );
}
