import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { API_KEY_NAME_MAX, API_KEY_SCOPES, READ_SCOPES, type ApiKeyScope } from '@shared/teams';
import {
  reloadTeams,
  useApiKeys,
  useCreateApiKey,
  useRevokeApiKey,
  type ApiKeySummaryDto,
  type CreatedApiKeyDto,
} from '../api/teams';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { copyLabel, useCopy } from '../components/account/useCopy';
import { useWide } from '../components/shorts/useWide';
import { useT } from '../i18n/context';
import { errorText, loadErrorText } from '../lib/errors';
import { formatDateTime } from '../lib/expiry';
import { space } from '../state/space';
import { toast } from '../state/toasts';

/** /account/keys: the caller's named, scoped API keys; create (the key shown once), revoke. */
export default function ApiKeysPage() {
  const { msg, t } = useT();
  const keys = useApiKeys();
  const revoke = useRevokeApiKey();
  const wide = useWide();
  const [creating, setCreating] = useState(false);
  const [pending, setPending] = useState<ApiKeySummaryDto | null>(null);

  async function confirmRevoke() {
    if (!pending) return;
    try {
      await revoke.mutateAsync(pending.id);
      toast.success(msg.apiKeys.revoked);
    } catch (err) {
      toast.error(errorText(err, msg.apiKeys.revokeFailed));
    } finally {
      setPending(null);
    }
  }

  const rows = keys.data ?? [];
  return (
    <section aria-labelledby="keys-title">
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-2">
        <h1 id="keys-title" className="mb-0">
          {msg.apiKeys.title}
        </h1>
        <Button onClick={() => setCreating(true)} data-testid="key-new">
          {msg.apiKeys.create}
        </Button>
      </div>
      <p className="text-body-secondary">
        {msg.apiKeys.intro} <Link href="/account">{msg.apiKeys.toAccount}</Link>
      </p>
      {keys.isPending ? (
        <Spinner animation="border" role="status" />
      ) : keys.isError ? (
        <Alert variant="danger" data-testid="keys-error">
          {msg.apiKeys.loadError} {loadErrorText(keys.error)}
        </Alert>
      ) : rows.length === 0 ? (
        <div className="border rounded p-4 text-center" data-testid="keys-empty">
          <h2 className="h5 mb-0">{msg.apiKeys.empty}</h2>
        </div>
      ) : wide ? (
        <Table hover responsive className="align-middle" data-testid="keys-table">
          <thead>
            <tr>
              <th scope="col">{msg.apiKeys.name}</th>
              <th scope="col">{msg.apiKeys.prefix}</th>
              <th scope="col">{msg.apiKeys.scopes}</th>
              <th scope="col">{msg.apiKeys.team}</th>
              <th scope="col">{msg.apiKeys.createdAt}</th>
              <th scope="col">{msg.apiKeys.expiresAt}</th>
              <th scope="col">{msg.apiKeys.lastUsedAt}</th>
              <th scope="col" className="text-end">
                {msg.apiKeys.actions}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((k) => (
              <tr key={k.id} data-testid="key-row" data-name={k.name}>
                <td className="fw-semibold text-break">{k.name}</td>
                <td>
                  <code>{k.prefix}…</code>
                </td>
                <td>
                  <Scopes scopes={k.scopes} />
                </td>
                <td>{k.team?.name ?? msg.apiKeys.noTeam}</td>
                <td className="text-nowrap">{formatDateTime(k.createdAt)}</td>
                <td className="text-nowrap">
                  {k.expiresAt ? formatDateTime(k.expiresAt) : msg.apiKeys.noExpiry}
                </td>
                <td className="text-nowrap" data-testid="key-last-used">
                  {k.lastUsedAt ? formatDateTime(k.lastUsedAt) : msg.apiKeys.never}
                </td>
                <td className="text-end">
                  <RevokeButton name={k.name} onClick={() => setPending(k)} />
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      ) : (
        <ul className="list-unstyled d-grid gap-2" data-testid="keys-cards">
          {rows.map((k) => (
            <li key={k.id}>
              <Card data-testid="key-row" data-name={k.name}>
                <Card.Body className="p-3">
                  <div className="d-flex flex-wrap align-items-center gap-2 mb-1">
                    <span className="fw-semibold text-break me-auto">{k.name}</span>
                    <code>{k.prefix}…</code>
                  </div>
                  <Scopes scopes={k.scopes} />
                  <dl className="small mt-2 mb-2">
                    <Fact term={msg.apiKeys.team}>{k.team?.name ?? msg.apiKeys.noTeam}</Fact>
                    <Fact term={msg.apiKeys.createdAt}>{formatDateTime(k.createdAt)}</Fact>
                    <Fact term={msg.apiKeys.expiresAt}>
                      {k.expiresAt ? formatDateTime(k.expiresAt) : msg.apiKeys.noExpiry}
                    </Fact>
                    <Fact term={msg.apiKeys.lastUsedAt}>
                      <span data-testid="key-last-used">
                        {k.lastUsedAt ? formatDateTime(k.lastUsedAt) : msg.apiKeys.never}
                      </span>
                    </Fact>
                  </dl>
                  <RevokeButton name={k.name} onClick={() => setPending(k)} />
                </Card.Body>
              </Card>
            </li>
          ))}
        </ul>
      )}

      <CreateKeyDialog show={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        id="key-revoke"
        show={pending !== null}
        title={msg.apiKeys.revokeTitle}
        confirmLabel={msg.apiKeys.revoke}
        cancelLabel={msg.apiKeys.cancel}
        busy={revoke.isPending}
        onConfirm={() => void confirmRevoke()}
        onCancel={() => setPending(null)}
      >
        {pending ? t(msg.apiKeys.revokeConfirm, { name: pending.name }) : null}
      </ConfirmDialog>
    </section>
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

function RevokeButton({ name, onClick }: { name: string; onClick: () => void }) {
  const { msg, t } = useT();
  return (
    <Button
      size="sm"
      variant="outline-danger"
      aria-label={t(msg.apiKeys.revokeOf, { name })}
      onClick={onClick}
    >
      {msg.apiKeys.revoke}
    </Button>
  );
}

function Scopes({ scopes }: { scopes: readonly ApiKeyScope[] }) {
  const { msg } = useT();
  return (
    <span className="d-inline-flex flex-wrap gap-1" data-testid="key-scopes">
      {scopes.map((s) => (
        <Badge key={s} bg="secondary" title={msg.apiKeys.scopeNames[s]} data-scope={s}>
          {s}
        </Badge>
      ))}
    </span>
  );
}

/** 'Neuer API-Key': name, scopes, optional team and expiry; then the key, shown this once. */
function CreateKeyDialog({ show, onClose }: { show: boolean; onClose: () => void }) {
  const { msg } = useT();
  const [created, setCreated] = useState<CreatedApiKeyDto | null>(null);
  const close = () => {
    // The key is forgotten with the dialog: it is never shown again.
    setCreated(null);
    onClose();
  };
  return (
    <Modal show={show} onHide={close} aria-labelledby="key-create-title" backdrop="static">
      <Modal.Header closeButton closeLabel={msg.apiKeys.close}>
        <Modal.Title id="key-create-title">
          {created ? msg.apiKeys.newKeyTitle : msg.apiKeys.createTitle}
        </Modal.Title>
      </Modal.Header>
      {show &&
        (created ? (
          <NewKey created={created} onClose={close} />
        ) : (
          <CreateKeyForm onCreated={setCreated} onCancel={close} />
        ))}
    </Modal>
  );
}

function CreateKeyForm({
  onCreated,
  onCancel,
}: {
  onCreated: (k: CreatedApiKeyDto) => void;
  onCancel: () => void;
}) {
  const { msg, t } = useT();
  const s = useSnapshot(space);
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['shorts:read']);
  const [team, setTeam] = useState('');
  const [expiry, setExpiry] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (space.teams === null) reloadTeams().catch(() => undefined);
  }, []);
  const teamRole = s.teams?.find((x) => x.id === team)?.role;
  const allowed = (scope: ApiKeyScope) => teamRole !== 'viewer' || READ_SCOPES.includes(scope);

  const toggle = (scope: ApiKeyScope, on: boolean) =>
    setScopes((v) => (on ? [...v, scope] : v.filter((x) => x !== scope)));

  async function submit(e: FormEvent) {
    e.preventDefault();
    const chosen = API_KEY_SCOPES.filter((x) => scopes.includes(x) && allowed(x));
    if (chosen.length === 0) return setError(msg.apiKeys.needScope);
    setError(null);
    try {
      const key = await create.mutateAsync({
        name: name.trim(),
        scopes: chosen,
        ...(team ? { team } : {}),
        ...(expiry ? { expiresAt: new Date(`${expiry}T23:59:59`).toISOString() } : {}),
      });
      toast.success(t(msg.apiKeys.created, { name: key.name }));
      onCreated(key);
    } catch (err) {
      const text = errorText(err, msg.apiKeys.createFailed);
      setError(text);
      toast.error(text);
    }
  }

  const today = new Date().toISOString().slice(0, 10);
  return (
    <Form onSubmit={(e) => void submit(e)} data-testid="key-create-form">
      <Modal.Body>
        <Form.Group controlId="key-name" className="mb-3">
          <Form.Label>{msg.apiKeys.name}</Form.Label>
          <Form.Control
            value={name}
            required
            maxLength={API_KEY_NAME_MAX}
            onChange={(e) => setName(e.target.value)}
          />
        </Form.Group>
        <fieldset className="mb-3">
          <legend className="form-label fs-6">{msg.apiKeys.scopes}</legend>
          {API_KEY_SCOPES.map((scope) => (
            <Form.Check
              key={scope}
              id={`key-scope-${scope.replace(':', '-')}`}
              label={
                <>
                  {msg.apiKeys.scopeNames[scope]} <code className="small">{scope}</code>
                </>
              }
              checked={scopes.includes(scope) && allowed(scope)}
              disabled={!allowed(scope)}
              onChange={(e) => toggle(scope, e.target.checked)}
              data-scope={scope}
            />
          ))}
          {teamRole === 'viewer' && (
            <Form.Text className="d-block">{msg.apiKeys.viewerHint}</Form.Text>
          )}
        </fieldset>
        <Form.Group controlId="key-team" className="mb-3">
          <Form.Label>{msg.apiKeys.teamLabel}</Form.Label>
          <Form.Select value={team} onChange={(e) => setTeam(e.target.value)}>
            <option value="">{msg.apiKeys.noTeam}</option>
            {(s.teams ?? []).map((x) => (
              <option key={x.id} value={x.id}>
                {x.name} ({msg.roles[x.role]})
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group controlId="key-expiry">
          <Form.Label>{msg.apiKeys.expiryLabel}</Form.Label>
          <Form.Control
            type="date"
            min={today}
            value={expiry}
            onChange={(e) => setExpiry(e.target.value)}
          />
        </Form.Group>
        {error && (
          <Alert variant="danger" className="mt-3 mb-0" data-testid="key-create-error">
            {error}
          </Alert>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onCancel}>
          {msg.apiKeys.cancel}
        </Button>
        <Button type="submit" disabled={create.isPending || !name.trim()}>
          {msg.apiKeys.submit}
        </Button>
      </Modal.Footer>
    </Form>
  );
}

function NewKey({ created, onClose }: { created: CreatedApiKeyDto; onClose: () => void }) {
  const { msg, t } = useT();
  const [copied, copy] = useCopy();
  return (
    <>
      <Modal.Body data-testid="key-created">
        <Alert variant="warning" data-testid="key-once-warning">
          {msg.apiKeys.newKeyWarning}
        </Alert>
        <Form.Label htmlFor="key-value">
          {t(msg.apiKeys.newKeyLabel, { name: created.name })}
        </Form.Label>
        <InputGroup>
          <Form.Control
            id="key-value"
            readOnly
            value={created.key}
            className="font-monospace"
            data-testid="key-value"
            onFocus={(e) => e.target.select()}
          />
          <Button
            variant="outline-secondary"
            onClick={() => void copy(created.key)}
            data-testid="key-copy"
          >
            {copyLabel(copied, msg.apiKeys, msg.apiKeys.copy)}
          </Button>
        </InputGroup>
      </Modal.Body>
      <Modal.Footer>
        <Button onClick={onClose}>{msg.apiKeys.close}</Button>
      </Modal.Footer>
    </>
  );
}
