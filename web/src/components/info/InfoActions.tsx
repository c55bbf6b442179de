import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import type { Short } from '../../api/client';
import { displayHost } from '../../lib/idn';
import { canShare, copyLink, shareLink } from './share';
import { useT } from '../../i18n/context';

/**
 * The info page's buttons: one click follows the short ('Weiter zu {host}', the target's host
 * named), share (only where the browser has a share menu), copy, delete for the owner or an admin,
 * report for everyone else. `children` are further actions of the short. `linkActions: false`
 * leaves out share and copy (the created banner above offers them).
 */
export function InfoActions({
  short,
  canDelete,
  linkActions = true,
  onDelete,
  onReport,
  children,
}: {
  short: Short;
  canDelete: boolean;
  linkActions?: boolean;
  onDelete: () => void;
  onReport: () => void;
  children?: ReactNode;
}) {
  const { msg, t } = useT();
  const link = short.shortUrl;
  const host = displayHost(short.url);
  return (
    <div className="d-flex flex-wrap gap-2 mt-3">
      {/* The short itself, so the follow's rules (danger, password, limits) apply as for anyone. */}
      <a className="btn btn-primary" href={link} rel="noreferrer" data-testid="follow-link">
        {host ? t(msg.infoPage.openTo, { host }) : msg.info.open}
      </a>
      {linkActions && canShare() && (
        <Button
          variant="outline-secondary"
          onClick={() => void shareLink(link, short.name ?? short.code)}
        >
          {msg.info.share}
        </Button>
      )}
      {linkActions && (
        <Button variant="outline-secondary" onClick={() => void copyLink(link)}>
          {msg.info.copy}
        </Button>
      )}
      {children}
      {canDelete ? (
        <Button variant="outline-danger" onClick={onDelete}>
          {msg.info.delete}
        </Button>
      ) : (
        <Button variant="outline-danger" onClick={onReport}>
          {msg.info.report}
        </Button>
      )}
    </div>
  );
}
