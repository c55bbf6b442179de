import { useEffect, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Modal from 'react-bootstrap/Modal';
import type { Short } from '../../api/client';
import { useUpdateShort } from '../../api/queries/shorts';
import { de, t } from '../../i18n/de';
import { changesOf, fieldsOf, type EditFields } from '../../lib/edit';
import { errorText } from '../../lib/errors';
import { formatDateTime, parseExpiry } from '../../lib/expiry';
import { toast } from '../../state/toasts';

export interface EditShortDialogProps {
  /** The short to edit; null: the dialog is closed. */
  short: Short | null;
  onClose: () => void;
  /** After a successful save, with the short as the server has it now. */
  onSaved?: (short: Short) => void;
}

/** 'Bearbeiten': the create form's fields, prefilled; only changed fields are sent (PATCH). */
export function EditShortDialog({ short, onClose, onSaved }: EditShortDialogProps) {
  return (
    <Modal show={short !== null} onHide={onClose} aria-labelledby="edit-short-title">
      {short && <EditForm key={short.id} short={short} onClose={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

function EditForm({
  short,
  onClose,
  onSaved,
}: Required<Pick<EditShortDialogProps, 'onClose'>> & {
  short: Short;
  onSaved?: (short: Short) => void;
}) {
  const [f, setF] = useState<EditFields>(() => fieldsOf(short));
  const [expireAt, setExpireAt] = useState<Date | null>(
    short.expireAt ? new Date(short.expireAt) : null,
  );
  const update = useUpdateShort();
  const set = <K extends keyof EditFields>(k: K, v: EditFields[K]) =>
    setF((o) => ({ ...o, [k]: v }));

  useEffect(() => {
    let live = true;
    void parseExpiry(f.expiry).then((d) => {
      if (live) setExpireAt(d);
    });
    return () => {
      live = false;
    };
  }, [f.expiry]);

  const expiryUnderstood = !f.expiry.trim() || expireAt !== null;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!expiryUnderstood) return void toast.error(de.edit.expiryNotUnderstood);
    const body = changesOf(short, f, expireAt);
    if (Object.keys(body).length === 0) return void toast.info(de.edit.noChanges);
    try {
      const saved = await update.mutateAsync({ params: { path: { id: short.id } }, body });
      toast.success(de.edit.saved);
      onSaved?.(saved);
      onClose();
    } catch (err) {
      toast.error(errorText(err, de.edit.errorOther));
    }
  }

  return (
    <Form onSubmit={(e) => void submit(e)} data-testid="edit-short-form">
      <Modal.Header closeButton closeLabel={de.edit.close}>
        <Modal.Title id="edit-short-title">{de.edit.title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <Form.Group className="mb-3" controlId="edit-url">
          <Form.Label>{de.fields.url}</Form.Label>
          <Form.Control
            type="url"
            required
            value={f.url}
            onChange={(e) => set('url', e.target.value)}
          />
        </Form.Group>
        <Form.Group className="mb-3" controlId="edit-code">
          <Form.Label>{de.fields.code}</Form.Label>
          <Form.Control required value={f.code} onChange={(e) => set('code', e.target.value)} />
        </Form.Group>
        <Form.Group className="mb-3" controlId="edit-name">
          <Form.Label>{de.fields.name}</Form.Label>
          <Form.Control
            value={f.name}
            placeholder={de.create.namePlaceholder}
            onChange={(e) => set('name', e.target.value)}
          />
        </Form.Group>
        <Form.Group className="mb-3" controlId="edit-expiry">
          <Form.Label>{de.fields.expireAt}</Form.Label>
          <InputGroup>
            <Form.Control
              value={f.expiry}
              placeholder={de.create.expiryPlaceholder}
              isInvalid={!expiryUnderstood}
              aria-describedby="edit-expiry-help"
              onChange={(e) => set('expiry', e.target.value)}
            />
            <Button
              variant="outline-secondary"
              onClick={() => set('expiry', '')}
              disabled={!f.expiry}
            >
              {de.edit.clearExpiry}
            </Button>
          </InputGroup>
          <Form.Text id="edit-expiry-help" className={expiryUnderstood ? undefined : 'text-danger'}>
            {!f.expiry.trim()
              ? de.edit.noExpiry
              : expireAt
                ? t(de.create.understoodAs, { date: formatDateTime(expireAt) })
                : de.edit.expiryNotUnderstood}
          </Form.Text>
        </Form.Group>
        <Form.Group className="mb-3" controlId="edit-maxuses">
          <Form.Label>{de.fields.maxUses}</Form.Label>
          <InputGroup>
            <Form.Control
              type="number"
              min={1}
              step={1}
              inputMode="numeric"
              value={f.maxUses}
              placeholder={de.create.unlimited}
              onChange={(e) => set('maxUses', e.target.value)}
            />
            <Button
              variant="outline-secondary"
              onClick={() => set('maxUses', '')}
              disabled={!f.maxUses}
            >
              {de.edit.clearMaxUses}
            </Button>
          </InputGroup>
        </Form.Group>
        <Form.Group className="mb-2" controlId="edit-password">
          <Form.Label>{de.edit.password}</Form.Label>
          <Form.Control
            type="password"
            autoComplete="new-password"
            value={f.password}
            disabled={f.removePassword}
            aria-describedby="edit-password-help"
            onChange={(e) => set('password', e.target.value)}
          />
          <Form.Text id="edit-password-help">
            {short.hasPassword ? de.edit.passwordHint : de.edit.passwordNone}
          </Form.Text>
        </Form.Group>
        {short.hasPassword && (
          <Form.Check
            id="edit-remove-password"
            label={de.edit.removePassword}
            checked={f.removePassword}
            onChange={(e) => set('removePassword', e.target.checked)}
          />
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose}>
          {de.edit.cancel}
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {de.edit.save}
        </Button>
      </Modal.Footer>
    </Form>
  );
}
