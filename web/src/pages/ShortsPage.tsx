import { useCallback, useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { api, unwrap, type Schemas, type Short } from '../api/client';
import { ColumnFilter } from '../components/shorts/ColumnFilter';
import { ConfirmDelete } from '../components/shorts/ConfirmDelete';
import { Pager } from '../components/shorts/Pager';
import { ShortsTable } from '../components/shorts/ShortsTable';
import { de, t } from '../i18n/de';
import {
  DEFAULT_PAGE_SIZE,
  DEFAULT_SORT,
  defaultVisibleColumns,
  nextSort,
  PAGE_SIZES,
  SEARCH_DEBOUNCE_MS,
  SHORT_COLUMNS,
  showPageSize,
  sortParam,
  toggleColumn,
  type ShortColumn,
  type SortState,
} from '../lib/table';
import { toast } from '../state/toasts';

type ShortPage = Schemas['PageMetaDto'] & { content: Short[] };

/** SPEC §8: the load error shows the status and the message, the title or 'Unbekannter Fehler'. */
export function loadErrorText(err: unknown): string {
  const e = (err && typeof err === 'object' ? err : {}) as {
    status?: unknown;
    detail?: unknown;
    message?: unknown;
    title?: unknown;
  };
  const msg = [e.detail, e.message, e.title].find(
    (x) => typeof x === 'string' && x.trim() !== '',
  ) as string | undefined;
  const message = msg ?? de.shorts.unknownError;
  return typeof e.status === 'number'
    ? t(de.shorts.loadErrorStatus, { status: e.status, message })
    : message;
}

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setV(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return v;
}

async function deleteShort(id: string): Promise<void> {
  await unwrap(api.DELETE('/api/code/{id}', { params: { path: { id } } }));
}

type Pending = { kind: 'one'; short: Short } | { kind: 'bulk'; ids: string[] };

export default function ShortsPage() {
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(DEFAULT_PAGE_SIZE);
  const [sort, setSort] = useState<SortState>(DEFAULT_SORT);
  const [searchInput, setSearchInput] = useState('');
  const debounced = useDebounced(searchInput.trim(), SEARCH_DEBOUNCE_MS);
  const [search, setSearch] = useState('');
  const [columns, setColumns] = useState<ShortColumn[]>(defaultVisibleColumns);
  const [data, setData] = useState<ShortPage | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const [reload, setReload] = useState(0);
  const seq = useRef(0);

  // A new search goes back to the first page (both change in one render: one request).
  useEffect(() => {
    if (debounced !== search) {
      setSearch(debounced);
      setPage(0);
    }
  }, [debounced, search]);

  useEffect(() => {
    const mine = ++seq.current;
    setLoading(true);
    unwrap(
      api.GET('/api/code', {
        params: { query: { page, size, sort: [sortParam(sort)], ...(search ? { search } : {}) } },
      }),
    )
      .then((d) => {
        if (mine !== seq.current) return;
        const result = d as ShortPage;
        // After deletes the page may lie beyond the end: go to the last one that exists.
        if (result.totalPages > 0 && page >= result.totalPages) {
          setPage(result.totalPages - 1);
          return;
        }
        setData(result);
        setError(null);
        setSelected(new Set());
      })
      .catch((err: unknown) => {
        if (mine !== seq.current) return;
        setError(err);
        setData(null);
      })
      .finally(() => {
        if (mine === seq.current) setLoading(false);
      });
  }, [page, size, sort, search, reload]);

  const refresh = useCallback(() => setReload((r) => r + 1), []);

  async function confirmDelete() {
    if (!pending) return;
    setBusy(true);
    try {
      if (pending.kind === 'one') {
        try {
          await deleteShort(pending.short.id);
          toast.success(de.shorts.deleted);
        } catch {
          toast.error(de.shorts.deleteFailed);
        }
      } else {
        const results = await Promise.allSettled(pending.ids.map((id) => deleteShort(id)));
        if (results.every((r) => r.status === 'fulfilled')) toast.success(de.shorts.bulkDeleted);
        else toast.error(de.shorts.bulkDeleteFailed);
      }
    } finally {
      setBusy(false);
      setPending(null);
      refresh();
    }
  }

  const rows = data?.content ?? [];
  const total = data?.totalElements ?? 0;

  return (
    <section aria-labelledby="shorts-title">
      <h1 id="shorts-title" className="mb-3">
        {de.shorts.title}
      </h1>
      <div className="d-flex flex-wrap gap-2 align-items-end mb-3">
        <Form.Group controlId="shorts-search" className="flex-grow-1" style={{ minWidth: '14rem' }}>
          <Form.Label className="mb-1">{de.shorts.search}</Form.Label>
          <Form.Control
            type="search"
            value={searchInput}
            placeholder={de.shorts.searchPlaceholder}
            onChange={(e) => setSearchInput(e.target.value)}
          />
        </Form.Group>
        <ColumnFilter
          visible={columns}
          onToggle={(c) => setColumns((v) => toggleColumn(SHORT_COLUMNS, v, c))}
        />
        {selected.size > 0 && (
          <Button variant="danger" onClick={() => setPending({ kind: 'bulk', ids: [...selected] })}>
            {t(de.shorts.deleteSelected, { count: selected.size })}
          </Button>
        )}
        {loading && <Spinner animation="border" size="sm" role="status" className="ms-1 mb-2" />}
      </div>

      {error !== null ? (
        <Alert variant="danger" data-testid="shorts-error">
          <Alert.Heading as="h2" className="h5">
            {de.shorts.loadError}
          </Alert.Heading>
          <p className="mb-0">{loadErrorText(error)}</p>
        </Alert>
      ) : data && total === 0 ? (
        <Alert variant="info" data-testid="shorts-empty">
          {de.shorts.empty}
        </Alert>
      ) : data ? (
        <>
          <ShortsTable
            rows={rows}
            columns={columns}
            sort={sort}
            onSort={(c) => {
              setSort((s) => nextSort(s, c));
              setPage(0);
            }}
            selected={selected}
            onSelect={(id, on) =>
              setSelected((prev) => {
                const next = new Set(prev);
                if (on) next.add(id);
                else next.delete(id);
                return next;
              })
            }
            onSelectAll={(on) => setSelected(on ? new Set(rows.map((r) => r.id)) : new Set())}
            onDelete={(s) => setPending({ kind: 'one', short: s })}
          />
          <div className="d-flex flex-wrap gap-3 align-items-start justify-content-between">
            <div className="d-flex gap-3 align-items-center">
              <span className="text-body-secondary" data-testid="shorts-total">
                {t(de.shorts.total, { count: total })}
              </span>
              {showPageSize(total) && (
                <Form.Group
                  controlId="shorts-page-size"
                  className="d-flex gap-2 align-items-center"
                >
                  <Form.Label className="mb-0 text-nowrap">{de.shorts.pageSize}</Form.Label>
                  <Form.Select
                    size="sm"
                    value={size}
                    onChange={(e) => {
                      setSize(Number(e.target.value));
                      setPage(0);
                    }}
                  >
                    {PAGE_SIZES.map((n) => (
                      <option key={n} value={n}>
                        {n}
                      </option>
                    ))}
                  </Form.Select>
                </Form.Group>
              )}
            </div>
            <Pager
              page={data.number + 1}
              pageCount={data.totalPages}
              onPage={(p) => setPage(p - 1)}
            />
          </div>
        </>
      ) : null}

      <ConfirmDelete
        text={
          pending === null
            ? null
            : pending.kind === 'one'
              ? t(de.shorts.confirmDelete, { code: pending.short.code })
              : t(de.shorts.confirmBulk, { count: pending.ids.length })
        }
        busy={busy}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setPending(null)}
      />
    </section>
  );
}
