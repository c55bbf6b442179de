import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import ListGroup from 'react-bootstrap/ListGroup';
import Spinner from 'react-bootstrap/Spinner';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { type PageDto, useDeletePage, usePages } from '../../api/pages';
import { reloadTeams } from '../../api/teams';
import { useLinkPagesT } from '../../i18n/link-pages-text';
import { errorText, loadErrorText } from '../../lib/errors';
import { runtimeConfig } from '../../runtime-config';
import { space } from '../../state/space';
import { toast } from '../../state/toasts';
import { ConfirmDialog } from '../ConfirmDialog';
import { PageEditor, type WritableTeam } from './PageEditor';

type Editing = { page: PageDto | null } | null;

/**
 * The caller's link pages (his own and his teams'): each with its address, its links' count and
 * its space; 'Neue Link-Seite', its statistics (every member), editing and deleting (a team's
 * pages: its owners and editors).
 */
export function LinkPagesPanel() {
  const { t, lp } = useLinkPagesT();
  const s = useSnapshot(space);
  const pages = usePages();
  const remove = useDeletePage();
  const [editing, setEditing] = useState<Editing>(null);
  const [pending, setPending] = useState<PageDto | null>(null);
  useEffect(() => {
    if (space.teams === null) reloadTeams().catch(() => undefined);
  }, []);
  const writable: WritableTeam[] = (s.teams ?? [])
    .filter((x) => x.role !== 'viewer')
    .map((x) => ({ id: x.id, name: x.name }));
  const mayWrite = (p: PageDto) =>
    !p.team || s.teams === null || s.teams.some((x) => x.id === p.team?.id && x.role !== 'viewer');

  async function confirmDelete() {
    if (!pending) return;
    try {
      await remove.mutateAsync(pending.id);
      toast.success(lp.linkPages.deleted);
    } catch (err) {
      toast.error(errorText(err, lp.linkPages.deleteFailed));
    }
    setPending(null);
  }

  if (editing) {
    return (
      <PageEditor
        key={editing.page?.id ?? 'new'}
        page={editing.page}
        teams={writable}
        baseUrl={runtimeConfig.baseUrl}
        onDone={() => setEditing(null)}
      />
    );
  }
  return (
    <>
      <div className="mb-3">
        <Button onClick={() => setEditing({ page: null })}>{lp.linkPages.create}</Button>
      </div>
      {pages.isPending && <Spinner animation="border" role="status" />}
      {pages.isError && <Alert variant="danger">{loadErrorText(pages.error)}</Alert>}
      {pages.data?.length === 0 && <p data-testid="pages-empty">{lp.linkPages.empty}</p>}
      {pages.data && pages.data.length > 0 && (
        <ListGroup data-testid="pages-list">
          {pages.data.map((p) => (
            <ListGroup.Item key={p.id} className="d-flex flex-wrap gap-2 align-items-center">
              <div className="flex-grow-1 text-break">
                <div className="fw-semibold">{p.title}</div>
                <a href={p.url} target="_blank" rel="noopener noreferrer">
                  {p.url}
                </a>{' '}
                <Badge bg="secondary">{t(lp.linkPages.links, { count: p.links.length })}</Badge>{' '}
                <Badge bg="light" text="dark">
                  {p.team?.name ?? lp.linkPages.personal}
                </Badge>
              </div>
              <div className="d-flex flex-wrap gap-2">
                <Link
                  className="btn btn-sm btn-outline-secondary"
                  href={`/account?view=pages&stats=${encodeURIComponent(p.id)}`}
                  aria-label={`${lp.linkPages.statistics}: ${p.title}`}
                >
                  {lp.linkPages.statistics}
                </Link>
                {mayWrite(p) && (
                  <>
                    <Button
                      size="sm"
                      variant="outline-primary"
                      aria-label={`${lp.linkPages.edit}: ${p.title}`}
                      onClick={() => setEditing({ page: p })}
                    >
                      {lp.linkPages.edit}
                    </Button>
                    <Button
                      size="sm"
                      variant="outline-danger"
                      aria-label={`${lp.linkPages.remove}: ${p.title}`}
                      onClick={() => setPending(p)}
                    >
                      {lp.linkPages.remove}
                    </Button>
                  </>
                )}
              </div>
            </ListGroup.Item>
          ))}
        </ListGroup>
      )}
      <ConfirmDialog
        show={pending !== null}
        id="page-delete"
        title={pending ? t(lp.linkPages.confirmDelete, { title: pending.title }) : ''}
        confirmLabel={lp.linkPages.remove}
        cancelLabel={lp.linkPages.cancel}
        confirmVariant="danger"
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setPending(null)}
      >
        {lp.linkPages.confirmDeleteText}
      </ConfirmDialog>
    </>
  );
}
