import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import { useSnapshot } from 'valtio';
import { Link, useLocation, useParams } from 'wouter';
import { useDeleteShorts, useShort } from '../api/queries/shorts';
import { CreatedBanner } from '../components/info/CreatedBanner';
import { DeleteConfirm } from '../components/info/DeleteConfirm';
import { DeadLink, deadReason } from '../components/info/DeadLink';
import { InfoActions } from '../components/info/InfoActions';
import { LinkHealth } from '../components/info/LinkHealth';
import { InfoTabs } from '../components/info/InfoTabs';
import { EditShortDialog } from '../components/manage/EditShortDialog';
import { QrDialog } from '../components/manage/QrDialog';
import { MetaSection } from '../components/info/MetaSection';
import { ShortFacts } from '../components/info/ShortFacts';
import { ReportDialog } from '../components/ReportDialog';
import { errorText, isNotFound } from '../lib/errors';
import { useUrlQuery } from '../lib/useUrlQuery';
import { auth, isAdmin } from '../state/auth';
import { toast } from '../state/toasts';
import { useQrT } from '../i18n/qr-text';

/**
 * /s/{code}/info: the short's facts and actions. The query string opens its parts:
 * show_created (the created banner), show_delete (the delete question), show_report (the dialog),
 * tab (owners: statistics or complaints); not_found and reason (from the follow's not-found
 * redirect) tell why a short leads nowhere.
 */
export default function InfoPage() {
  const { msg, qm } = useQrT();
  const { code = '' } = useParams<{ code: string }>();
  const [, navigate] = useLocation();
  const [query, setQuery] = useUrlQuery();
  const a = useSnapshot(auth);
  // ?domain=: a short on an own domain, opened on this service's host (from the own list).
  const { data: short, error } = useShort(code, query.get('domain'));
  const deleteShorts = useDeleteShorts();
  const [deleting, setDeleting] = useState(false);
  const [editing, setEditing] = useState(false);
  const [showQr, setShowQr] = useState(false);

  if (error) {
    // A short that leads nowhere is no failure of the page: say what happened (as far as known).
    if (isNotFound(error)) return <DeadLink code={code} reason={deadReason(query)} />;
    return (
      <section>
        <h1 className="h3">{msg.info.loadError}</h1>
        <Alert variant="danger">{errorText(error)}</Alert>
        <Link href="/" className="btn btn-outline-primary">
          {msg.error.toStart}
        </Link>
      </section>
    );
  }
  if (!short) return <Spinner animation="border" role="status" />;

  const user = a.user;
  const owner = Boolean(user && (short.owner?.id === user.id || isAdmin(user)));

  async function doDelete(id: string) {
    setDeleting(true);
    const ok = await deleteShorts([id]);
    setDeleting(false);
    if (!ok) return void toast.error(msg.info.deleteFailed);
    toast.success(msg.info.deleted);
    navigate('/');
  }

  const created = query.get('show_created') === 'true';
  return (
    <section>
      <h1 className="h3">{msg.info.title}</h1>
      {created && (
        <CreatedBanner
          short={short}
          anonymous={a.status !== 'authenticated'}
          onQr={() => setShowQr(true)}
        />
      )}
      {query.get('show_delete') === 'true' && (
        <DeleteConfirm
          busy={deleting}
          onConfirm={() => void doDelete(short.id)}
          onCancel={() => setQuery({ show_delete: null })}
        />
      )}
      {short.dangers && <Alert variant="warning">{msg.info.dangerous}</Alert>}
      <InfoTabs short={short} canManage={owner}>
        <Card className="mb-3">
          <Card.Body>
            <ShortFacts short={short} />
            {owner && <LinkHealth short={short} />}
            {/* Right after creating, the banner above offers copy, share and the QR code. */}
            <InfoActions
              short={short}
              canDelete={owner}
              linkActions={!created}
              onDelete={() => setQuery({ show_delete: 'true' })}
              onReport={() => setQuery({ show_report: 'true' })}
            >
              {!created && (
                <Button variant="outline-secondary" onClick={() => setShowQr(true)}>
                  {qm.qr.button}
                </Button>
              )}
              {owner && (
                <Button variant="outline-primary" onClick={() => setEditing(true)}>
                  {msg.edit.button}
                </Button>
              )}
            </InfoActions>
          </Card.Body>
        </Card>
        {short.url && <MetaSection code={short.code} domain={short.domain} />}
      </InfoTabs>
      <QrDialog
        code={short.code}
        domain={short.domain}
        link={short.shortUrl}
        id={short.id}
        qrStyle={short.qrStyle}
        canSave={owner}
        show={showQr}
        onClose={() => setShowQr(false)}
      />
      <EditShortDialog
        short={editing ? short : null}
        onClose={() => setEditing(false)}
        onSaved={(saved) => {
          if (saved.code !== short.code || saved.domain !== short.domain) {
            const on = saved.domain ? `?domain=${encodeURIComponent(saved.domain)}` : '';
            navigate(`/s/${encodeURIComponent(saved.code)}/info${on}`);
          }
        }}
      />
      <ReportDialog
        code={short.code}
        domain={short.domain}
        show={query.has('show_report')}
        onClose={() => setQuery({ show_report: null })}
      />
    </section>
  );
}
