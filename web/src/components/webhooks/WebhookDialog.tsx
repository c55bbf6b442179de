import { useWebhooksT } from '../../i18n/webhooks-text';
import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Modal from 'react-bootstrap/Modal';
import {
  useCreateWebhook,
  useUpdateWebhook,
  WEBHOOK_EVENTS,
  type CreatedWebhookDto,
  type WebhookDto,
  type WebhookEvent,
} from '../../api/webhooks';
import { errorText } from '../../lib/errors';
import { toast } from '../../state/toasts';
import { copyLabel, useCopy } from '../account/useCopy';

/** The headers of a Standard Webhooks delivery: what a receiver checks. */
export const SIGNATURE_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

/** A receiver's check with the Standard Webhooks libraries (the same in every language). */
const VERIFY_CODE = `import { Webhook } from 'standardwebhooks';
new Webhook(secret).verify(body, headers);`;

/** A team the user may add webhooks to (owner or editor). */
export interface WritableTeam {
  id: string;
  name: string;
}

const subscribable = (events: readonly string[]): WebhookEvent[] =>
  WEBHOOK_EVENTS.filter((e) => events.includes(e));

/**
 * 'Neuer Webhook' (URL, events, optional team; then the secret, shown this once) or 'Webhook
 * bearbeiten' (URL, events) when `editing` is given.
 */
export function WebhookDialog({
  show,
  editing,
  team,
  teams,
  onClose,
}: {
  show: boolean;
  editing: WebhookDto | null;
  /** The team page's team: every new webhook belongs to it. */
  team?: WritableTeam;
  /** The teams to choose from (the account page). */
  teams: readonly WritableTeam[];
  onClose: () => void;
}) {
  const { wm } = useWebhooksT();
  const [created, setCreated] = useState<CreatedWebhookDto | null>(null);
  const close = () => {
    // The secret is forgotten with the dialog: it is never shown again.
    setCreated(null);
    onClose();
  };
  const title = created
    ? wm.webhooks.secretTitle
    : editing
      ? wm.webhooks.editTitle
      : wm.webhooks.createTitle;
  return (
    <Modal show={show} onHide={close} aria-labelledby="webhook-dialog-title" backdrop="static">
      <Modal.Header closeButton closeLabel={wm.webhooks.close}>
        <Modal.Title id="webhook-dialog-title">{title}</Modal.Title>
      </Modal.Header>
      {show &&
        (created ? (
          <NewSecret created={created} onClose={close} />
        ) : (
          <WebhookForm
            key={editing?.id ?? 'new'}
            editing={editing}
            team={team}
            teams={teams}
            onCreated={setCreated}
            onDone={close}
          />
        ))}
    </Modal>
  );
}

function WebhookForm({
  editing,
  team,
  teams,
  onCreated,
  onDone,
}: {
  editing: WebhookDto | null;
  team?: WritableTeam;
  teams: readonly WritableTeam[];
  onCreated: (w: CreatedWebhookDto) => void;
  onDone: () => void;
}) {
  const { t, wm } = useWebhooksT();
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const [url, setUrl] = useState(editing?.url ?? '');
  const [events, setEvents] = useState<WebhookEvent[]>(subscribable(editing?.events ?? []));
  const [chosenTeam, setChosenTeam] = useState('');
  const [error, setError] = useState<string | null>(null);
  const busy = create.isPending || update.isPending;

  const toggle = (event: WebhookEvent, on: boolean) =>
    setEvents((v) => (on ? [...v, event] : v.filter((x) => x !== event)));

  async function submit(e: FormEvent) {
    e.preventDefault();
    const chosen = subscribable(events);
    if (chosen.length === 0) return setError(wm.webhooks.needEvent);
    setError(null);
    const teamId = team?.id ?? chosenTeam;
    try {
      if (editing) {
        await update.mutateAsync({ hook: editing.id, body: { url: url.trim(), events: chosen } });
        toast.success(wm.webhooks.saved);
        onDone();
      } else {
        const hook = await create.mutateAsync({
          url: url.trim(),
          events: chosen,
          ...(teamId ? { team: teamId } : {}),
        });
        toast.success(wm.webhooks.created);
        onCreated(hook);
      }
    } catch (err) {
      const text = errorText(err, editing ? wm.webhooks.saveFailed : wm.webhooks.createFailed);
      setError(text);
      toast.error(text);
    }
  }

  return (
    <Form onSubmit={(e) => void submit(e)} data-testid="webhook-form">
      <Modal.Body>
        <Form.Group controlId="webhook-url" className="mb-3">
          <Form.Label>{wm.webhooks.url}</Form.Label>
          <Form.Control
            type="url"
            inputMode="url"
            value={url}
            required
            placeholder="https://"
            onChange={(e) => setUrl(e.target.value)}
            aria-describedby="webhook-url-hint"
          />
          <Form.Text id="webhook-url-hint">{wm.webhooks.urlHint}</Form.Text>
        </Form.Group>
        <fieldset className="mb-3">
          <legend className="form-label fs-6">{wm.webhooks.events}</legend>
          {WEBHOOK_EVENTS.map((event) => (
            <Form.Check
              key={event}
              id={`webhook-event-${event.replace(/[._]/g, '-')}`}
              label={
                <>
                  {wm.webhooks.eventNames[event]} <code className="small">{event}</code>
                </>
              }
              checked={events.includes(event)}
              onChange={(e) => toggle(event, e.target.checked)}
              data-event={event}
            />
          ))}
        </fieldset>
        {!editing &&
          (team ? (
            <p className="mb-0" data-testid="webhook-team-fixed">
              {t(wm.webhooks.inTeam, { name: team.name })}
            </p>
          ) : (
            teams.length > 0 && (
              <Form.Group controlId="webhook-team">
                <Form.Label>{wm.webhooks.teamLabel}</Form.Label>
                <Form.Select value={chosenTeam} onChange={(e) => setChosenTeam(e.target.value)}>
                  <option value="">{wm.webhooks.personal}</option>
                  {teams.map((x) => (
                    <option key={x.id} value={x.id}>
                      {x.name}
                    </option>
                  ))}
                </Form.Select>
              </Form.Group>
            )
          ))}
        {error && (
          <Alert variant="danger" className="mt-3 mb-0" data-testid="webhook-form-error">
            {error}
          </Alert>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onDone}>
          {wm.webhooks.cancel}
        </Button>
        <Button type="submit" disabled={busy || !url.trim()} data-testid="webhook-submit">
          {editing ? wm.webhooks.save : wm.webhooks.submit}
        </Button>
      </Modal.Footer>
    </Form>
  );
}

/** The new webhook's secret, this once, with a copy button and how a receiver verifies. */
function NewSecret({ created, onClose }: { created: CreatedWebhookDto; onClose: () => void }) {
  const { t, wm } = useWebhooksT();
  const [copied, copy] = useCopy();
  return (
    <>
      <Modal.Body data-testid="webhook-created">
        <Alert variant="warning" data-testid="webhook-once-warning">
          {wm.webhooks.secretWarning}
        </Alert>
        <Form.Label htmlFor="webhook-secret" className="text-break">
          {t(wm.webhooks.secretLabel, { url: created.url })}
        </Form.Label>
        <InputGroup className="mb-3">
          <Form.Control
            id="webhook-secret"
            readOnly
            value={created.secret}
            className="font-monospace"
            data-testid="webhook-secret"
            onFocus={(e) => e.target.select()}
          />
          <Button
            variant="outline-secondary"
            onClick={() => void copy(created.secret)}
            data-testid="webhook-copy"
          >
            {copyLabel(copied, wm.webhooks, wm.webhooks.copy)}
          </Button>
        </InputGroup>
        <section data-testid="webhook-verify" aria-labelledby="webhook-verify-title">
          <h3 id="webhook-verify-title" className="h6">
            {wm.webhooks.verifyTitle}
          </h3>
          <p className="small mb-1">{wm.webhooks.verifyText}</p>
          <p className="small mb-1 d-flex flex-wrap gap-2">
            {SIGNATURE_HEADERS.map((h) => (
              <code key={h}>{h}</code>
            ))}
          </p>
          <pre className="small bg-body-tertiary border rounded p-2 mb-0">
            <code>{VERIFY_CODE}</code>
          </pre>
        </section>
      </Modal.Body>
      <Modal.Footer>
        <Button onClick={onClose}>{wm.webhooks.close}</Button>
      </Modal.Footer>
    </>
  );
}
