import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import type { Short } from '../../api/client';
import { useCheckHealth } from '../../api/queries/shorts';
import { errorText } from '../../lib/errors';
import { formatDateTime } from '../../lib/expiry';
import { toast } from '../../state/toasts';
import { useT } from '../../i18n/context';

const BG = { ok: 'success', broken: 'warning', unknown: 'secondary' } as const;

/**
 * 'Linkstatus' on the info page of a short its owner (or an admin) sees: the state of the last
 * checks of its target ('Defekt' after 3 failures in a row), when and what was answered, and
 * 'Jetzt prüfen' (POST /api/code/{id}/health), which says in a toast how the check went.
 */
export function LinkHealth({ short }: { short: Short }) {
  const { msg, t } = useT();
  const check = useCheckHealth();
  const health = short.health;
  if (!health) return null;
  const { state } = health;

  async function checkNow() {
    try {
      const next = await check.mutateAsync({ params: { path: { id: short.id } } });
      const text = msg.health.checked[next.state];
      if (next.state === 'ok') toast.success(text);
      else if (next.state === 'broken') toast.error(text);
      else toast.info(text);
    } catch (err) {
      toast.error(errorText(err, msg.health.checkFailed));
    }
  }

  const facts = health.checkedAt
    ? [
        t(msg.health.checkedAt, { date: formatDateTime(health.checkedAt) }),
        health.status === null
          ? msg.health.noAnswer
          : t(msg.health.status, { status: health.status }),
        ...(health.failingSince
          ? [t(msg.health.failingSince, { date: formatDateTime(health.failingSince) })]
          : []),
      ]
    : [msg.health.never];
  return (
    <div
      className="d-flex flex-wrap align-items-center gap-2 mt-3"
      data-testid="link-health"
      data-state={state}
    >
      <span className="fw-semibold">{msg.health.title}:</span>
      <Badge bg={BG[state]} text={state === 'broken' ? 'dark' : undefined}>
        {msg.health.states[state]}
      </Badge>
      <span className="small text-body-secondary">{facts.join(' · ')}</span>
      <Button
        variant="outline-secondary"
        size="sm"
        disabled={check.isPending}
        onClick={() => void checkNow()}
      >
        {check.isPending && (
          <Spinner animation="border" size="sm" className="me-1" aria-hidden="true" />
        )}
        {msg.health.checkNow}
      </Button>
    </div>
  );
}
