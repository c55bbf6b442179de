import { useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import type { Short } from '../../api/client';
import { de } from '../../i18n/de';
import { copyLink, shareLink } from './share';

/**
 * The info page's buttons: open (after a warning about leaving the site), share, copy, and delete
 * for the owner or an admin, report for everyone else. `children` are further actions of the short.
 */
export function InfoActions({
  short,
  canDelete,
  onOpened,
  onDelete,
  onReport,
  children,
}: {
  short: Short;
  canDelete: boolean;
  /** The target was opened in a new tab. */
  onOpened: () => void;
  onDelete: () => void;
  onReport: () => void;
  children?: ReactNode;
}) {
  const [showWarning, setShowWarning] = useState(false);
  // The server's link: `{BASE_URL}/s/{code}`, or `{scheme}://{domain}/{code}` on an own domain.
  const link = short.shortUrl;
  return (
    <>
      <div className="d-flex flex-wrap gap-2 mt-3">
        <Button
          variant="primary"
          onClick={() => {
            if (!showWarning) return setShowWarning(true);
            window.open(`/s/${encodeURIComponent(short.code)}`, '_blank', 'noopener');
            onOpened();
          }}
        >
          {de.info.open}
        </Button>
        <Button
          variant="outline-secondary"
          onClick={() => void shareLink(link, short.name ?? short.code)}
        >
          {de.info.share}
        </Button>
        <Button variant="outline-secondary" onClick={() => void copyLink(link)}>
          {de.info.copy}
        </Button>
        {children}
        {canDelete ? (
          <Button variant="outline-danger" onClick={onDelete}>
            {de.info.delete}
          </Button>
        ) : (
          <Button variant="outline-danger" onClick={onReport}>
            {de.info.report}
          </Button>
        )}
      </div>
      {showWarning && (
        <Alert variant="warning" className="mt-3 mb-0">
          {de.info.externalWarning}
        </Alert>
      )}
    </>
  );
}
