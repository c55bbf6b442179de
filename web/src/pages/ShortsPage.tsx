import { useEffect, useMemo, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useSnapshot } from 'valtio';
import { Link, useLocation, useSearch } from 'wouter';
import type { Short } from '../api/client';
import { useDomains } from '../api/queries/domains';
import { useDeleteShorts, useOwnShorts, type OwnShortsQuery } from '../api/queries/shorts';
import { MAIN_HOST_FILTER } from '@shared/domains';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { EditShortDialog } from '../components/manage/EditShortDialog';
import { ImportDialog } from '../components/manage/ImportDialog';
import { QrDialog } from '../components/manage/QrDialog';
import {
  DEFAULT_SORT,
  defaultVisibleColumns,
  SEARCH_DEBOUNCE_MS,
  SHORT_COLUMNS,
  type ShortColumn,
} from '../components/shorts/columns';
import { ShortCards } from '../components/shorts/ShortCards';
import { ShortsPaging } from '../components/shorts/ShortsPaging';
import { ShortsTable } from '../components/shorts/ShortsTable';
import { ShortsToolbar } from '../components/shorts/ShortsToolbar';
import { SortSelect } from '../components/shorts/SortSelect';
import { useTableFit } from '../components/shorts/useTableFit';
import { MoveDialog, moveTargets } from '../components/teams/MoveDialog';
import { RoleBadge } from '../components/teams/RoleBadge';
import { BulkBar } from '../components/tags/BulkBar';
import { TagFilter } from '../components/tags/TagFilter';
import { useResolved } from '../components/useResolved';
import { useWide } from '../components/shorts/useWide';
import { loadErrorText } from '../lib/errors';
import { FLAGS } from '../lib/flag-rule';
import { shortsHref, tagsOfSearch } from '../lib/tag-filter';
import { tagSuggestions } from '../lib/tags-api';
import {
  DEFAULT_PAGE_SIZE,
  nextSort,
  pageBeyondEnd,
  toggleColumn,
  type SortState,
} from '../lib/table';
import { flags } from '../state/flags';
import { chooseSpace, mayWriteIn, space } from '../state/space';
import { toast } from '../state/toasts';
import { pluralForm } from '../i18n/plural';
import { useTagsT } from '../i18n/tags-text';
import { transferMsg } from '../i18n/transfer-text';

type View = OwnShortsQuery & { sort: SortState<ShortColumn> };
const NONE: ReadonlySet<string> = new Set();

/**
 * /shorts: the caller's own shorts (or a team's) as a server-paged, sorted and searched table.
 * The address holds the space (`?team=`) and the tag filter (`?tag=Herbst&tag=Sale`), so both can
 * be linked and the back button undoes a filter.
 */
export default function ShortsPage() {
  const { msg, t, tm, lang } = useTagsT();
  const [view, setView] = useState<View>({
    page: 0,
    size: DEFAULT_PAGE_SIZE,
    sort: DEFAULT_SORT,
    search: '',
    domain: '',
    broken: false,
  });
  // The space: `?team=` of the list (a link names it), else the one chosen in the switcher.
  const search = useSearch();
  const [, navigate] = useLocation();
  const urlTeam = new URLSearchParams(search).get('team');
  const tags = useMemo(() => tagsOfSearch(search), [search]);
  const setTags = (next: readonly string[]) => navigate(shortsHref(search, next));
  const statistics = Boolean(useSnapshot(flags).enabled[FLAGS.statistics]);
  const sp = useSnapshot(space);
  useEffect(() => {
    if (urlTeam !== null && urlTeam !== (space.current ?? '')) chooseSpace(urlTeam || null);
  }, [urlTeam]);
  const teamId = (urlTeam ?? sp.current) || null;
  const team = teamId ? (sp.teams?.find((x) => x.id === teamId) ?? null) : null;
  // A team not (yet) known as the caller's: read-only until the switcher has loaded the teams.
  const writable = teamId === null || (team !== null && mayWriteIn(team));
  const targets = writable ? moveTargets(teamId, sp.teams, msg.space.personal) : [];
  const [moving, setMoving] = useState<Short | null>(null);
  // Another space: its list starts at the first page.
  const [shownTeam, setShownTeam] = useState(teamId);
  if (shownTeam !== teamId) {
    setShownTeam(teamId);
    setView((v) => ({ ...v, page: 0 }));
  }
  // Another tag filter: the same.
  const tagsKey = tags.join('\n');
  const [shownTags, setShownTags] = useState(tagsKey);
  if (shownTags !== tagsKey) {
    setShownTags(tagsKey);
    setView((v) => ({ ...v, page: 0 }));
  }
  const [searchInput, setSearchInput] = useState('');
  const [columns, setColumns] = useState<ShortColumn[]>(defaultVisibleColumns);
  const [pending, setPending] = useState<Short | null>(null);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<Short | null>(null);
  const [importing, setImporting] = useState(false);
  const [qr, setQr] = useState<Short | null>(null);
  const wide = useWide();
  const list = useOwnShorts({ ...view, team: teamId, tags });
  // The tag filter shows once the space has tags (or the address names some).
  const spaceHasTags = useResolved(
    () => tagSuggestions(teamId).then((l) => l.length > 0),
    [teamId, list.dataUpdatedAt],
    false,
  );
  const hosts = useDomains().data?.map((d) => d.host) ?? [];
  const deleteShorts = useDeleteShorts();

  // The search asks the server once typing pauses, and starts again at the first page.
  useEffect(() => {
    const text = searchInput.trim();
    const id = setTimeout(
      () => setView((v) => (v.search === text ? v : { ...v, search: text, page: 0 })),
      SEARCH_DEBOUNCE_MS,
    );
    return () => clearTimeout(id);
  }, [searchInput]);

  // After deletes the page may lie beyond the end: go to the last one that exists.
  const beyond =
    list.data && !list.isPlaceholderData ? pageBeyondEnd(view.page, list.data.totalPages) : null;
  if (beyond !== null) setView({ ...view, page: beyond });
  const data = list.isError || beyond !== null ? undefined : list.data;

  // The selection belongs to the rows it was made on: every load clears it.
  const [selection, setSelection] = useState({ at: 0, ids: NONE });
  const selected = selection.at === list.dataUpdatedAt ? selection.ids : NONE;
  const select = (ids: ReadonlySet<string>) => setSelection({ at: list.dataUpdatedAt, ids });

  async function confirmDelete() {
    if (!pending) return;
    setBusy(true);
    try {
      if (await deleteShorts([pending.id])) toast.success(msg.shorts.deleted);
      else toast.error(msg.shorts.deleteFailed);
    } finally {
      setBusy(false);
      setPending(null);
    }
  }

  const rows = data?.content ?? [];
  const inTeam = teamId ? `&team=${encodeURIComponent(teamId)}` : '';
  const total = data?.totalElements ?? 0;
  // Phones get cards; wider windows the table, unless it does not fit (then cards again).
  const { attach, fits } = useTableFit([data, columns, lang]);
  const cards = !wide || !fits;
  const onSelect = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    select(next);
  };

  return (
    <section aria-labelledby="shorts-title">
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h1 id="shorts-title" className="mb-0">
          {msg.shorts.title}
          {team && (
            <small className="ms-2 fs-5 text-body-secondary" data-testid="shorts-team">
              {team.name} <RoleBadge role={team.role} />
            </small>
          )}
        </h1>
        {writable && (
          <Link href="/" className="btn btn-primary" data-testid="new-short">
            {msg.shorts.newShort}
          </Link>
        )}
      </div>
      {team && !writable && (
        <Alert variant="info" data-testid="shorts-read-only">
          {msg.space.readOnly}
        </Alert>
      )}
      <ShortsToolbar
        search={searchInput}
        onSearch={setSearchInput}
        columns={columns}
        onToggleColumn={(c) => setColumns((v) => toggleColumn(SHORT_COLUMNS, v, c))}
        loading={list.isFetching}
      >
        {cards && data && total > 0 && (
          <SortSelect
            columns={columns}
            sort={view.sort}
            onSort={(sort) => setView((v) => ({ ...v, sort, page: 0 }))}
          />
        )}
        {hosts.length > 0 && (
          <Form.Group controlId="shorts-domain">
            <Form.Label className="mb-1">{msg.shorts.domainFilter}</Form.Label>
            <Form.Select
              value={view.domain}
              onChange={(e) => setView((v) => ({ ...v, domain: e.target.value, page: 0 }))}
            >
              <option value="">{msg.shorts.allDomains}</option>
              <option value={MAIN_HOST_FILTER}>{msg.shorts.mainHost}</option>
              {hosts.map((h) => (
                <option key={h} value={h}>
                  {h}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
        )}
        <Form.Check
          type="switch"
          id="shorts-broken"
          className="mb-2"
          label={msg.shorts.brokenOnly}
          checked={view.broken}
          onChange={(e) => setView((v) => ({ ...v, broken: e.target.checked, page: 0 }))}
        />
        <a
          className="btn btn-outline-secondary"
          href={`/api/code/export?format=csv${inTeam}`}
          download
        >
          {transferMsg().transfer.exportCsv}
        </a>
        <a
          className="btn btn-outline-secondary"
          href={`/api/code/export?format=json${inTeam}`}
          download
        >
          {transferMsg().transfer.exportJson}
        </a>
        {writable && (
          <Button variant="outline-primary" onClick={() => setImporting(true)}>
            {transferMsg().transfer.import}
          </Button>
        )}
      </ShortsToolbar>

      {(tags.length > 0 || spaceHasTags) && (
        <TagFilter tags={tags} onChange={setTags} team={teamId} statistics={statistics} />
      )}
      {writable && selected.size > 0 && (
        <BulkBar
          ids={[...selected]}
          rows={rows}
          team={teamId}
          targets={targets}
          onClear={() => select(NONE)}
          onRefused={(ids) => select(new Set([...selected].filter((id) => !ids.includes(id))))}
        />
      )}
      {list.isError ? (
        <Alert variant="danger" data-testid="shorts-error">
          <Alert.Heading as="h2" className="h5">
            {msg.shorts.loadError}
          </Alert.Heading>
          <p className="mb-0">{loadErrorText(list.error)}</p>
        </Alert>
      ) : data &&
        total === 0 &&
        !view.search &&
        !view.domain &&
        !view.broken &&
        tags.length === 0 &&
        writable ? (
        <div className="border rounded p-4 text-center" data-testid="shorts-first">
          <h2 className="h5">{msg.shorts.emptyTitle}</h2>
          <p className="text-body-secondary">{msg.shorts.emptyText}</p>
          <Link href="/" className="btn btn-primary">
            {msg.shorts.emptyAction}
          </Link>
        </div>
      ) : data && total === 0 ? (
        <Alert variant="info" data-testid="shorts-empty">
          {tags.length > 0
            ? t(pluralForm(tm.tags.filter.empty, tags.length), { tags: tags.join(', ') })
            : view.broken
              ? msg.shorts.noBroken
              : msg.shorts.empty}
        </Alert>
      ) : data ? (
        <>
          <div ref={attach} className="shorts-fit" data-layout={cards ? 'cards' : 'table'}>
            {cards ? (
              <ShortCards
                rows={rows}
                columns={columns}
                selected={writable ? selected : undefined}
                onSelect={writable ? onSelect : undefined}
                readOnly={!writable}
                onMove={targets.length > 0 ? setMoving : undefined}
                onQr={setQr}
                onEdit={setEditing}
                onDelete={setPending}
              />
            ) : (
              <ShortsTable
                rows={rows}
                columns={columns}
                sort={view.sort}
                onSort={(c) => setView((v) => ({ ...v, sort: nextSort(v.sort, c), page: 0 }))}
                selected={selected}
                onSelect={onSelect}
                onSelectAll={(on) => select(on ? new Set(rows.map((r) => r.id)) : NONE)}
                onDelete={setPending}
                onEdit={setEditing}
                onQr={setQr}
                readOnly={!writable}
                onMove={targets.length > 0 ? setMoving : undefined}
              />
            )}
          </div>
          <ShortsPaging
            total={total}
            size={view.size}
            onSize={(size) => setView((v) => ({ ...v, size, page: 0 }))}
            page={data.number}
            pageCount={data.totalPages}
            onPage={(page) => setView((v) => ({ ...v, page }))}
          />
        </>
      ) : null}

      {qr && (
        <QrDialog
          code={qr.code}
          domain={qr.domain}
          link={qr.shortUrl}
          id={qr.id}
          qrStyle={qr.qrStyle}
          canSave={writable}
          show
          onClose={() => setQr(null)}
        />
      )}
      <EditShortDialog short={editing} onClose={() => setEditing(null)} />
      <MoveDialog short={moving} targets={targets} onClose={() => setMoving(null)} />
      <ImportDialog show={importing} onClose={() => setImporting(false)} />
      <ConfirmDialog
        id="confirm-delete"
        show={pending !== null}
        title={msg.shorts.confirmTitle}
        confirmLabel={msg.shorts.confirm}
        cancelLabel={msg.shorts.cancel}
        busy={busy}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setPending(null)}
      >
        {pending === null ? null : t(msg.shorts.confirmDelete, { code: pending.code })}
      </ConfirmDialog>
    </section>
  );
}
