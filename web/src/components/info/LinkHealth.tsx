import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import type { Short } from '../../api/client';
import { useCheckHealth } from '../../api/queries/shorts';
import { errorText } from '../../lib/errors';
import { formatDateTime } from '../../lib/expiry';
import { checkFinding, healthFacts, healthView, type HealthView } from '../../lib/health';
import { useT } from '../../i18n/context';

const BG: Record<HealthView, string> = {
  ok: 'success',
  broken: 'danger',
  failing: 'warning',
  unchecked: 'secondary',
  uncheckable: 'secondary',
};

/**
 * 'Linkstatus' on the info page of a short its owner (or an admin) sees: one state of its target
 * (lib/health.ts: 'Erreichbar', 'Fehlerhaft' until the third failure in a row, then 'Defekt', 'Noch
 * nicht geprüft', 'Nicht prüfbar'), since when and what was answered, and 'Jetzt prüfen' (POST
 * /api/code/{id}/health), which says below what it found (or why it could not check).
 */
export function LinkHealth({ short }: { short: Short }) {
  const { msg } = useT();
  const check = useCheckHealth();
  // What the last 'Jetzt prüfen' found (kept until the next one).
  const [finding, setFinding] = useState<{ text: string; failed?: true }>();
  const health = short.health;
  if (!health) return null;
  const view = healthView(health);

  async function checkNow() {
    setFinding(undefined);
    try {
      const next = await check.mutateAsync({ params: { path: { id: short.id } } });
      setFinding({ text: checkFinding(next) });
    } catch (err) {
      setFinding({ text: errorText(err, msg.health.checkFailed), failed: true });
    }
  }

  const facts = healthFacts(health, formatDateTime);
  return (
    <div className="mt-3" data-testid="link-health" data-state={view}>
      <div className="d-flex flex-wrap align-items-center gap-2">
        <span className="fw-semibold">{msg.health.title}:</span>
        <Badge bg={BG[view]} text={view === 'failing' ? 'dark' : undefined}>
          {msg.health.views[view]}
        </Badge>
        {facts.length > 0 && <span className="small text-body-secondary">{facts.join(' · ')}</span>}
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
      <p
        role="status"
        className={`small mb-0 mt-1${finding?.failed ? ' text-danger' : ''}`}
        data-testid="link-health-finding"
      >
        {finding?.text}
      </p>
    </div>
  );
}
