import type { ErrorKey } from '@shared/error-keys';
import { useState, type FormEvent } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Spinner from 'react-bootstrap/Spinner';
import {
  useCreateDomain,
  useDeleteDomain,
  useDomains,
  useUpdateDomain,
  useVerifyDomain,
} from '../../api/queries/domains';
import { domainState, type Domain, type DomainState } from '../../lib/domains';
import { errorText, keyText } from '../../lib/errors';
import { formatDateTime } from '../../lib/expiry';
import { toast } from '../../state/toasts';
import { ConfirmDialog } from '../ConfirmDialog';
import { useCopy } from './useCopy';
import { useT } from '../../i18n/context';

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

export interface DomainsPanelProps {
  /** The caller's id: their own domains may be changed (admins: every domain). */
  userId: string;
  admin: boolean;
}

/**
 * The account's domains (CONTRACT "Own domains"): the shared ones and the own (admins: all), each
 * with its state, the DNS records that verify it, 'Jetzt prüfen', its redirects and delete; and
 * adding one (admins: also a shared one, verified at once).
 */
export function DomainsPanel({ userId, admin }: DomainsPanelProps) {
  const { msg } = useT();
  const domains = useDomains();
  const list = domains.data ?? [];
  return (
    <Card className="mb-4" data-testid="domains-panel">
      <Card.Body>
        <h2 className="h4" id="domains-title">
          {msg.domains.title}
        </h2>
        <p className="text-body-secondary">{msg.domains.text}</p>
        {domains.isPending ? (
          <Spinner animation="border" size="sm" role="status" />
        ) : domains.isError ? (
          <p className="text-danger" role="alert">
            {errorText(domains.error, msg.domains.loadError)}
          </p>
        ) : list.length === 0 ? (
          <p data-testid="domains-empty">{msg.domains.empty}</p>
        ) : (
          <ul className="list-unstyled mb-0" aria-labelledby="domains-title">
            {list.map((d) => (
              <DomainItem
                key={d.id}
                domain={d}
                canManage={admin || d.owner?.id === userId}
                showOwner={admin}
              />
            ))}
          </ul>
        )}
        <AddDomain admin={admin} />
      </Card.Body>
    </Card>
  );
}

function DomainItem({
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
  const own = d.owner !== null;

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

/** The TXT record that verifies the domain and where the domain should point. */
function Instructions({ domain: d }: { domain: Domain }) {
  const { msg, t } = useT();
  const v = d.verification;
  return (
    <div className="mb-2" data-testid="domain-instructions">
      <p className="fw-semibold mb-1">{msg.domains.instructions}</p>
      <p className="mb-2">{msg.domains.txtStep}</p>
      <CopyField id={`domain-record-${d.id}`} label={msg.domains.record} value={v.record} />
      <CopyField id={`domain-value-${d.id}`} label={msg.domains.value} value={v.value} />
      <p className="small mb-2">{t(msg.domains.pointStep, { target: v.target })}</p>
    </div>
  );
}

function CopyField({ id, label, value }: { id: string; label: string; value: string }) {
  const { msg } = useT();
  const [state, copy] = useCopy();
  return (
    <Form.Group className="mb-2" controlId={id}>
      <Form.Label className="small mb-1">{label}</Form.Label>
      <InputGroup size="sm">
        <Form.Control readOnly className="font-monospace" value={value} />
        <Button
          variant={state === 'failed' ? 'outline-danger' : 'outline-secondary'}
          onClick={() => void copy(value)}
        >
          <span aria-live="polite">
            {state === 'copied'
              ? msg.account.copied
              : state === 'failed'
                ? msg.account.copyFailed
                : msg.account.copy}
          </span>
        </Button>
      </InputGroup>
    </Form.Group>
  );
}

/** The home and not-found redirects (empty: this service's pages). */
function Redirects({ domain: d }: { domain: Domain }) {
  const { msg, t } = useT();
  const update = useUpdateDomain();
  const [home, setHome] = useState(d.homeRedirect ?? '');
  const [notFound, setNotFound] = useState(d.notFoundRedirect ?? '');

  async function save(e: FormEvent) {
    e.preventDefault();
    const body = {
      homeRedirect: home.trim() === '' ? null : home.trim(),
      notFoundRedirect: notFound.trim() === '' ? null : notFound.trim(),
    };
    try {
      await update.mutateAsync({ params: { path: { id: d.id } }, body });
      toast.success(msg.domains.saved);
    } catch (err) {
      toast.error(errorText(err, msg.domains.saveFailed));
    }
  }

  return (
    <Form onSubmit={(e) => void save(e)} className="mt-2">
      <RedirectField
        id={`domain-home-${d.id}`}
        label={msg.domains.homeRedirect}
        help={t(msg.domains.homeRedirectHelp, { host: d.host })}
        value={home}
        onChange={setHome}
      />
      <RedirectField
        id={`domain-notfound-${d.id}`}
        label={msg.domains.notFoundRedirect}
        help={msg.domains.notFoundRedirectHelp}
        value={notFound}
        onChange={setNotFound}
      />
      <Button type="submit" size="sm" variant="outline-secondary" disabled={update.isPending}>
        {msg.domains.save}
      </Button>
    </Form>
  );
}

/** One redirect of a domain: an absolute URL, empty for this service's page. */
function RedirectField(p: {
  id: string;
  label: string;
  help: string;
  value: string;
  onChange: (v: string) => void;
}) {
  const { msg } = useT();
  return (
    <Form.Group className="mb-2" controlId={p.id}>
      <Form.Label className="small mb-1">{p.label}</Form.Label>
      <Form.Control
        size="sm"
        type="url"
        value={p.value}
        placeholder={msg.domains.redirectPlaceholder}
        onChange={(e) => p.onChange(e.target.value)}
        aria-describedby={`${p.id}-help`}
      />
      <Form.Text id={`${p.id}-help`}>{p.help}</Form.Text>
    </Form.Group>
  );
}

/** Adds a domain: the user's own, pending until its TXT record is found; admins also shared ones. */
function AddDomain({ admin }: { admin: boolean }) {
  const { msg, t } = useT();
  const create = useCreateDomain();
  const [host, setHost] = useState('');
  const [shared, setShared] = useState(false);

  async function add(e: FormEvent) {
    e.preventDefault();
    try {
      const added = await create.mutateAsync({
        body: { host: host.trim(), ...(admin && shared ? { shared: true } : {}) },
      });
      toast.success(t(msg.domains.added, { host: added.host }));
      setHost('');
      setShared(false);
    } catch (err) {
      toast.error(errorText(err, msg.domains.addFailed));
    }
  }

  return (
    <Form onSubmit={(e) => void add(e)} className="mt-3" data-testid="domain-add">
      <Form.Group controlId="domain-add-host" className="mb-2">
        <Form.Label>{msg.domains.host}</Form.Label>
        <InputGroup>
          <Form.Control
            value={host}
            required
            placeholder={msg.domains.hostPlaceholder}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setHost(e.target.value)}
          />
          <Button type="submit" disabled={create.isPending}>
            {msg.domains.add}
          </Button>
        </InputGroup>
      </Form.Group>
      {admin && (
        <Form.Check
          id="domain-add-shared"
          label={msg.domains.sharedCheck}
          checked={shared}
          onChange={(e) => setShared(e.target.checked)}
        />
      )}
    </Form>
  );
}
