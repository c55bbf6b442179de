import type { ErrorKey } from '@shared/error-keys';
import type { TeamRefDto } from '../../../api/teams';
import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { useDeleteDomain, useVerifyDomain } from '../../../api/queries/domains';
import { domainState, type Domain, type DomainState } from '../../../lib/domains';
import { errorText, keyText } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/expiry';
import { toast } from '../../../state/toasts';
import { ConfirmDialog } from '../../ConfirmDialog';
import { useT } from '../../../i18n/context';
import { Instructions } from './Instructions';
import { Redirects } from './Redirects';

const BADGES: Record<DomainState, { bg: string; text?: 'dark' }> = {
  pending: { bg: 'warning', text: 'dark' },
  verified: { bg: 'success' },
  disabled: { bg: 'secondary' },
};

/** Why the last check failed, in German (the reasons are error keys). */
function reasonText(d: Domain): string | null {
  const r = d.verification.reason;
  return r ? keyText(r as ErrorKey) : null;
}

export function DomainItem({
  domain: d,
  canManage,
  showOwner,
}: {
  domain: Domain;
  canManage: boolean;
  showOwner: boolean;
}) {
  const { msg, t } = useT();
  const state = domainState(d);
  const reason = reasonText(d);
  const verify = useVerifyDomain();
  const remove = useDeleteDomain();
  const [confirming, setConfirming] = useState(false);
  const team = teamOf(d);
  // A team's domain is its members' (the server's checks decide), never a shared one.
  const own = d.owner !== null || team !== null;

  async function check() {
    try {
      const checked = await verify.mutateAsync({ params: { path: { id: d.id } } });
      if (checked.verified && checked.verification.reason === null) {
        toast.success(t(msg.domains.verified, { host: d.host }));
      } else {
        toast.warning(
          t(msg.domains.notVerified, { host: d.host, reason: reasonText(checked) ?? '' }).trim(),
        );
      }
    } catch (err) {
      toast.error(errorText(err, msg.domains.verifyFailed));
    }
  }

  async function del() {
    try {
      await remove.mutateAsync({ params: { path: { id: d.id } } });
      toast.success(t(msg.domains.deleted, { host: d.host }));
    } catch (err) {
      toast.error(errorText(err, msg.domains.deleteFailed));
    } finally {
      setConfirming(false);
    }
  }

  return (
    <li className="border rounded p-3 mb-3" data-testid="domain-item" data-host={d.host}>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <h3 className="h5 mb-0 text-break">{d.host}</h3>
        <Badge bg={BADGES[state].bg} text={BADGES[state].text} data-testid="domain-state">
          {msg.domains.states[state]}
        </Badge>
        {!own && (
          <Badge bg="info" text="dark">
            {msg.domains.shared}
          </Badge>
        )}
        {team && (
          <Badge bg="secondary" data-testid="domain-team">
            {team.name}
          </Badge>
        )}
        {showOwner && d.owner && (
          <span className="small text-body-secondary">
            {t(msg.domains.ownedBy, { username: d.owner.username })}
          </span>
        )}
      </div>
      {reason && (
        <p className="small text-danger mb-2" data-testid="domain-reason">
          {reason}
        </p>
      )}
      {own && state === 'pending' && <Instructions domain={d} />}
      {own && d.verification.checkedAt && (
        <p className="small text-body-secondary mb-2">
          {t(msg.domains.checkedAt, { date: formatDateTime(d.verification.checkedAt) })}
        </p>
      )}
      {canManage && <Redirects domain={d} />}
      {canManage && (
        <div className="d-flex flex-wrap gap-2 mt-2">
          {own && (
            <Button
              variant="outline-primary"
              size="sm"
              disabled={verify.isPending}
              aria-label={t(msg.domains.verifyRow, { host: d.host })}
              onClick={() => void check()}
            >
              {msg.domains.verify}
            </Button>
          )}
          <Button
            variant="outline-danger"
            size="sm"
            aria-label={t(msg.domains.deleteRow, { host: d.host })}
            onClick={() => setConfirming(true)}
          >
            {msg.domains.delete}
          </Button>
        </div>
      )}
      <ConfirmDialog
        id={`domain-delete-${d.id}`}
        show={confirming}
        title={msg.domains.confirmTitle}
        confirmLabel={msg.domains.confirm}
        cancelLabel={msg.domains.cancel}
        busy={remove.isPending}
        onConfirm={() => void del()}
        onCancel={() => setConfirming(false)}
      >
        <p className="mb-0">{t(msg.domains.confirmDelete, { host: d.host })}</p>
      </ConfirmDialog>
    </li>
  );
}

/** The team a domain belongs to (`Domain.team`, CONTRACT "Teams"). */
export function teamOf(d: Domain): TeamRefDto | null {
  return d.team ?? null;
}
