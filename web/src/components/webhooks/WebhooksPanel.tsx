import { useWebhooksT } from '../../i18n/webhooks-text';
import { useEffect, useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { useSnapshot } from 'valtio';
import { reloadTeams } from '../../api/teams';
import {
  useDeleteWebhook,
  useTestWebhook,
  useUpdateWebhook,
  useWebhooks,
  type WebhookDto,
} from '../../api/webhooks';
import { errorText, loadErrorText } from '../../lib/errors';
import { formatDateTime } from '../../lib/expiry';
import { space } from '../../state/space';
import { toast } from '../../state/toasts';
import { ConfirmDialog } from '../ConfirmDialog';
import { useWide } from '../shorts/useWide';
import { DeliveryLog } from './DeliveryLog';
import { WebhookDialog, type WritableTeam } from './WebhookDialog';

type Editing = { kind: 'create' } | { kind: 'edit'; hook: WebhookDto } | null;

/**
 * The webhooks of the account page (the caller's own and his teams') or of one team (`team`: the
 * team page, for owners and editors): the list with its actions, 'Neuer Webhook' (the secret
 * shown once) and each webhook's delivery log.
 */
export function WebhooksPanel({
  team,
  heading,
  intro,
}: {
  team?: WritableTeam;
  heading: ReactNode;
  /** Said below the heading. */
  intro?: ReactNode;
}) {
  const { t, wm } = useWebhooksT();
  const s = useSnapshot(space);
  const hooks = useWebhooks();
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const test = useTestWebhook();
  const wide = useWide();
  const [editing, setEditing] = useState<Editing>(null);
  const [pending, setPending] = useState<WebhookDto | null>(null);
  const [log, setLog] = useState<WebhookDto | null>(null);
  useEffect(() => {
    if (!team && space.teams === null) reloadTeams().catch(() => undefined);
  }, [team]);

  const writable: WritableTeam[] = (s.teams ?? [])
    .filter((x) => x.role !== 'viewer')
    .map((x) => ({ id: x.id, name: x.name }));
  /** A team's webhook is changed by its owners and editors only (the server says so, too). */
  const mayWrite = (h: WebhookDto) =>
    !h.team || s.teams === null || s.teams.some((x) => x.id === h.team?.id && x.role !== 'viewer');
  const rows = (hooks.data ?? []).filter((h) => (team ? h.team?.id === team.id : true));

  async function sendTest(h: WebhookDto) {
    try {
      await test.mutateAsync(h.id);
      toast.success(wm.webhooks.testSent);
    } catch (err) {
      toast.error(errorText(err, wm.webhooks.testFailed));
    }
  }

  async function toggle(h: WebhookDto) {
    try {
      await update.mutateAsync({ hook: h.id, body: { enabled: !h.enabled } });
      toast.success(h.enabled ? wm.webhooks.nowDisabled : wm.webhooks.nowEnabled);
    } catch (err) {
      toast.error(errorText(err, wm.webhooks.toggleFailed));
    }
  }

  async function confirmRemove() {
    if (!pending) return;
    try {
      await remove.mutateAsync(pending.id);
      toast.success(wm.webhooks.removed);
    } catch (err) {
      toast.error(errorText(err, wm.webhooks.removeFailed));
    } finally {
      setPending(null);
    }
  }

  const actions = (h: WebhookDto) => (
    <div className="d-flex flex-wrap gap-1 justify-content-md-end">
      <Button
        size="sm"
        variant="outline-secondary"
        onClick={() => setLog(h)}
        aria-label={t(wm.webhooks.deliveriesOf, { url: h.url })}
        data-testid="webhook-deliveries"
      >
        {wm.webhooks.deliveries}
      </Button>
      {mayWrite(h) && (
        <>
          <Button
            size="sm"
            variant="outline-primary"
            disabled={test.isPending}
            onClick={() => void sendTest(h)}
            aria-label={t(wm.webhooks.testOf, { url: h.url })}
            data-testid="webhook-test"
          >
            {wm.webhooks.test}
          </Button>
          <Button
            size="sm"
            variant="outline-secondary"
            disabled={update.isPending}
            onClick={() => void toggle(h)}
            aria-label={t(h.enabled ? wm.webhooks.disableOf : wm.webhooks.enableOf, {
              url: h.url,
            })}
            data-testid="webhook-toggle"
          >
            {h.enabled ? wm.webhooks.disable : wm.webhooks.enable}
          </Button>
          <Button
            size="sm"
            variant="outline-secondary"
            onClick={() => setEditing({ kind: 'edit', hook: h })}
            aria-label={t(wm.webhooks.editOf, { url: h.url })}
            data-testid="webhook-edit"
          >
            {wm.webhooks.edit}
          </Button>
          <Button
            size="sm"
            variant="outline-danger"
            onClick={() => setPending(h)}
            aria-label={t(wm.webhooks.removeOf, { url: h.url })}
            data-testid="webhook-delete"
          >
            {wm.webhooks.remove}
          </Button>
        </>
      )}
    </div>
  );

  return (
    <div data-testid="webhooks" data-team={team?.id}>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-2">
        {heading}
        <Button onClick={() => setEditing({ kind: 'create' })} data-testid="webhook-new">
          {wm.webhooks.create}
        </Button>
      </div>
      {intro && <p className="text-body-secondary">{intro}</p>}
      {hooks.isPending ? (
        <Spinner animation="border" role="status" />
      ) : hooks.isError ? (
        <Alert variant="danger" data-testid="webhooks-error">
          {wm.webhooks.loadError} {loadErrorText(hooks.error)}
        </Alert>
      ) : rows.length === 0 ? (
        <div className="border rounded p-4 text-center" data-testid="webhooks-empty">
          <p className="h5">{wm.webhooks.empty}</p>
          <p className="text-body-secondary mb-0">{wm.webhooks.emptyText}</p>
        </div>
      ) : wide ? (
        <Table hover responsive className="align-middle" data-testid="webhooks-table">
          <thead>
            <tr>
              <th scope="col">{wm.webhooks.url}</th>
              <th scope="col">{wm.webhooks.events}</th>
              {!team && <th scope="col">{wm.webhooks.team}</th>}
              <th scope="col">{wm.webhooks.state}</th>
              <th scope="col">{wm.webhooks.createdAt}</th>
              <th scope="col" className="text-end">
                {wm.webhooks.actions}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((h) => (
              <tr key={h.id} data-testid="webhook-row" data-url={h.url} data-id={h.id}>
                <td className="text-break" data-testid="webhook-url">
                  {h.url}
                </td>
                <td>
                  <Events events={h.events} />
                </td>
                {!team && <td>{h.team?.name ?? wm.webhooks.personal}</td>}
                <td>
                  <State hook={h} />
                </td>
                <td className="text-nowrap">{formatDateTime(h.createdAt)}</td>
                <td className="text-end">{actions(h)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      ) : (
        <ul className="list-unstyled d-grid gap-2" data-testid="webhooks-cards">
          {rows.map((h) => (
            <li key={h.id}>
              <Card data-testid="webhook-row" data-url={h.url} data-id={h.id}>
                <Card.Body className="p-3">
                  <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
                    <span className="fw-semibold text-break me-auto" data-testid="webhook-url">
                      {h.url}
                    </span>
                    <State hook={h} />
                  </div>
                  <Events events={h.events} />
                  <dl className="small mt-2 mb-2">
                    {!team && (
                      <Fact term={wm.webhooks.team}>{h.team?.name ?? wm.webhooks.personal}</Fact>
                    )}
                    <Fact term={wm.webhooks.createdAt}>{formatDateTime(h.createdAt)}</Fact>
                  </dl>
                  {actions(h)}
                </Card.Body>
              </Card>
            </li>
          ))}
        </ul>
      )}

      <WebhookDialog
        show={editing !== null}
        editing={editing?.kind === 'edit' ? editing.hook : null}
        team={team}
        teams={writable}
        onClose={() => setEditing(null)}
      />
      <DeliveryLog hook={log} onClose={() => setLog(null)} />
      <ConfirmDialog
        id="webhook-remove"
        show={pending !== null}
        title={wm.webhooks.removeTitle}
        confirmLabel={wm.webhooks.removeYes}
        cancelLabel={wm.webhooks.cancel}
        busy={remove.isPending}
        onConfirm={() => void confirmRemove()}
        onCancel={() => setPending(null)}
      >
        {pending ? t(wm.webhooks.removeConfirm, { url: pending.url }) : null}
      </ConfirmDialog>
    </div>
  );
}

function Events({ events }: { events: readonly string[] }) {
  const { wm } = useWebhooksT();
  const names = wm.webhooks.eventNames as Readonly<Record<string, string>>;
  return (
    <span className="d-inline-flex flex-wrap gap-1" data-testid="webhook-events">
      {events.map((e) => (
        <Badge key={e} bg="secondary" title={names[e]} data-event={e}>
          {e}
        </Badge>
      ))}
    </span>
  );
}

/** 'Aktiv' or 'Deaktiviert' (with the server's reason when it disabled the webhook). */
function State({ hook }: { hook: WebhookDto }) {
  const { t, wm } = useWebhooksT();
  return (
    <span className="d-inline-flex flex-column align-items-start gap-1">
      <Badge
        bg={hook.enabled ? 'success' : 'secondary'}
        data-testid="webhook-state"
        data-enabled={String(hook.enabled)}
      >
        {hook.enabled ? wm.webhooks.enabled : wm.webhooks.disabled}
      </Badge>
      {!hook.enabled && hook.disabledReason && (
        <small className="text-body-secondary text-break" data-testid="webhook-disabled-reason">
          {t(wm.webhooks.disabledReason, { reason: hook.disabledReason })}
        </small>
      )}
    </span>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="d-flex gap-2">
      <dt className="fw-normal text-body-secondary">{term}</dt>
      <dd className="mb-0">{children}</dd>
    </div>
  );
}
