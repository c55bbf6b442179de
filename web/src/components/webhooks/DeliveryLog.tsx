import { useWebhooksT } from '../../i18n/webhooks-text';
import { useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import {
  useDeliveries,
  useRetryDelivery,
  type WebhookDeliveryDto,
  type WebhookDeliveryStatus,
  type WebhookDto,
} from '../../api/webhooks';
import { errorText, loadErrorText } from '../../lib/errors';
import { formatDateTime } from '../../lib/expiry';
import { toast } from '../../state/toasts';
import { useTableFit } from '../shorts/useTableFit';
import { useWide } from '../shorts/useWide';
import { Pager } from '../table/Pager';

/** Entries per page of the log. */
export const DELIVERIES_PAGE_SIZE = 20;

const STATUS_VARIANT: Record<WebhookDeliveryStatus, string> = {
  pending: 'warning',
  delivered: 'success',
  failed: 'danger',
};

/** A delivery's state: 'Ausstehend', 'Zugestellt' or 'Fehlgeschlagen'. */
export function DeliveryStatusBadge({ status }: { status: WebhookDeliveryStatus }) {
  const { wm } = useWebhooksT();
  return (
    <Badge
      bg={STATUS_VARIANT[status]}
      text={status === 'pending' ? 'dark' : undefined}
      data-testid="delivery-status"
      data-status={status}
    >
      {wm.deliveries.states[status]}
    </Badge>
  );
}

/** 'Zustellungen': a webhook's delivery log, paged, each entry with 'Erneut senden'. */
export function DeliveryLog({ hook, onClose }: { hook: WebhookDto | null; onClose: () => void }) {
  const { t, wm } = useWebhooksT();
  return (
    <Modal
      show={hook !== null}
      onHide={onClose}
      size="xl"
      fullscreen="md-down"
      aria-labelledby="delivery-log-title"
    >
      <Modal.Header closeButton closeLabel={wm.deliveries.close}>
        <Modal.Title id="delivery-log-title" className="text-break">
          {hook ? t(wm.webhooks.deliveriesOf, { url: hook.url }) : wm.deliveries.title}
        </Modal.Title>
      </Modal.Header>
      {hook && <DeliveryList key={hook.id} hook={hook} />}
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose}>
          {wm.deliveries.close}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

function DeliveryList({ hook }: { hook: WebhookDto }) {
  const { lang, wm } = useWebhooksT();
  const [page, setPage] = useState(0);
  const deliveries = useDeliveries(hook.id, page, DELIVERIES_PAGE_SIZE);
  const retry = useRetryDelivery(hook.id);
  const wide = useWide();
  const rows = deliveries.data?.content ?? [];
  const { attach, fits } = useTableFit([rows, lang]);
  const table = wide && fits;

  async function again(d: WebhookDeliveryDto) {
    try {
      await retry.mutateAsync(d.id);
      toast.success(wm.deliveries.retried);
    } catch (err) {
      toast.error(errorText(err, wm.deliveries.retryFailed));
    }
  }

  return (
    <Modal.Body data-testid="delivery-log">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <p className="text-body-secondary mb-0 me-auto">{wm.deliveries.intro}</p>
        <Button
          size="sm"
          variant="outline-secondary"
          disabled={deliveries.isFetching}
          onClick={() => void deliveries.refetch()}
          data-testid="deliveries-refresh"
        >
          {wm.deliveries.refresh}
        </Button>
      </div>
      {deliveries.isPending ? (
        <Spinner animation="border" role="status" />
      ) : deliveries.isError ? (
        <Alert variant="danger" data-testid="deliveries-error">
          {wm.deliveries.loadError} {loadErrorText(deliveries.error)}
        </Alert>
      ) : rows.length === 0 ? (
        <div className="border rounded p-4 text-center" data-testid="deliveries-empty">
          <h3 className="h6 mb-0">{wm.deliveries.empty}</h3>
        </div>
      ) : (
        <div ref={attach} data-layout={table ? 'table' : 'cards'}>
          {table ? (
            <Table hover size="sm" className="align-middle" data-testid="deliveries-table">
              <thead>
                <tr>
                  <th scope="col">{wm.deliveries.status}</th>
                  <th scope="col">{wm.deliveries.type}</th>
                  <th scope="col">{wm.deliveries.attempts}</th>
                  <th scope="col">{wm.deliveries.statusCode}</th>
                  <th scope="col">{wm.deliveries.error}</th>
                  <th scope="col">{wm.deliveries.duration}</th>
                  <th scope="col">{wm.deliveries.createdAt}</th>
                  <th scope="col">{wm.deliveries.deliveredAt}</th>
                  <th scope="col" className="text-end">
                    {wm.deliveries.actions}
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((d) => (
                  <tr key={d.id} data-testid="delivery-row" data-status={d.status}>
                    <td>
                      <DeliveryStatusBadge status={d.status} />
                    </td>
                    <td>
                      <EventName type={d.type} />
                    </td>
                    <td data-testid="delivery-attempts">{d.attempts}</td>
                    <td data-testid="delivery-code">{d.lastStatusCode ?? wm.deliveries.none}</td>
                    <td className="text-break small" data-testid="delivery-error">
                      {d.lastError ?? wm.deliveries.none}
                    </td>
                    <td className="text-nowrap">
                      <Duration ms={d.durationMs} />
                    </td>
                    <td className="text-nowrap">{formatDateTime(d.createdAt)}</td>
                    <td className="text-nowrap">
                      {d.deliveredAt ? formatDateTime(d.deliveredAt) : wm.deliveries.none}
                    </td>
                    <td className="text-end">
                      <RetryButton delivery={d} busy={retry.isPending} onRetry={again} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          ) : (
            <ul className="list-unstyled d-grid gap-2 mb-0" data-testid="deliveries-cards">
              {rows.map((d) => (
                <li key={d.id}>
                  <Card data-testid="delivery-row" data-status={d.status}>
                    <Card.Body className="p-3">
                      <div className="d-flex flex-wrap align-items-center gap-2 mb-1">
                        <DeliveryStatusBadge status={d.status} />
                        <span className="me-auto">
                          <EventName type={d.type} />
                        </span>
                      </div>
                      <dl className="small mt-2 mb-2">
                        <Fact term={wm.deliveries.attempts}>
                          <span data-testid="delivery-attempts">{d.attempts}</span>
                        </Fact>
                        <Fact term={wm.deliveries.statusCode}>
                          <span data-testid="delivery-code">
                            {d.lastStatusCode ?? wm.deliveries.none}
                          </span>
                        </Fact>
                        {d.lastError && (
                          <Fact term={wm.deliveries.error}>
                            <span className="text-break" data-testid="delivery-error">
                              {d.lastError}
                            </span>
                          </Fact>
                        )}
                        <Fact term={wm.deliveries.duration}>
                          <Duration ms={d.durationMs} />
                        </Fact>
                        <Fact term={wm.deliveries.createdAt}>{formatDateTime(d.createdAt)}</Fact>
                        <Fact term={wm.deliveries.deliveredAt}>
                          {d.deliveredAt ? formatDateTime(d.deliveredAt) : wm.deliveries.none}
                        </Fact>
                      </dl>
                      <RetryButton delivery={d} busy={retry.isPending} onRetry={again} />
                    </Card.Body>
                  </Card>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {deliveries.data && deliveries.data.totalPages > 1 && (
        <div className="d-flex mt-2">
          <Pager
            variant="steps"
            page={page + 1}
            pageCount={deliveries.data.totalPages}
            onPage={(p) => setPage(p - 1)}
            summaryTestId="deliveries-page"
          />
        </div>
      )}
    </Modal.Body>
  );
}

function EventName({ type }: { type: WebhookDeliveryDto['type'] }) {
  const { wm } = useWebhooksT();
  const name = (wm.webhooks.eventNames as Readonly<Record<string, string>>)[type];
  return (
    <span data-testid="delivery-type" data-type={type}>
      <code>{type}</code>
      {name && <span className="d-block small text-body-secondary">{name}</span>}
    </span>
  );
}

function Duration({ ms }: { ms: number | null }) {
  const { t, wm } = useWebhooksT();
  return <>{ms === null ? wm.deliveries.none : t(wm.deliveries.ms, { ms })}</>;
}

function RetryButton({
  delivery,
  busy,
  onRetry,
}: {
  delivery: WebhookDeliveryDto;
  busy: boolean;
  onRetry: (d: WebhookDeliveryDto) => Promise<void>;
}) {
  const { t, wm } = useWebhooksT();
  return (
    <Button
      size="sm"
      variant="outline-primary"
      disabled={busy}
      aria-label={t(wm.deliveries.retryOf, {
        type: delivery.type,
        date: formatDateTime(delivery.createdAt),
      })}
      onClick={() => void onRetry(delivery)}
      data-testid="delivery-retry"
    >
      {wm.deliveries.retry}
    </Button>
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
