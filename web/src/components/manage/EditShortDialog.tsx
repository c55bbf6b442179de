import { type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import type { Short } from '../../api/client';
import { useUpdateShort } from '../../api/queries/shorts';
import { de } from '../../i18n/de';
import { errorText } from '../../lib/errors';
import { changesOf, fieldsOf } from '../../lib/short-form';
import { toast } from '../../state/toasts';
import { ShortFields, useShortForm } from '../ShortFields';
import { useUsableDomains } from '../useUsableDomains';

export interface EditShortDialogProps {
  /** The short to edit; null: the dialog is closed. */
  short: Short | null;
  onClose: () => void;
  /** After a successful save, with the short as the server has it now. */
  onSaved?: (short: Short) => void;
}

/** 'Bearbeiten': the short's fields (ShortFields, mode edit), prefilled; only changed fields are sent (PATCH). */
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
  const form = useShortForm(
    () => fieldsOf(short),
    short.expireAt ? new Date(short.expireAt) : null,
  );
  const update = useUpdateShort();
  const domains = useUsableDomains(true);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!form.expiryUnderstood) return void toast.error(de.edit.expiryNotUnderstood);
    const body = changesOf(short, form.values, form.expireAt);
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
        <ShortFields
          mode="edit"
          loggedIn
          values={form.values}
          onChange={form.change}
          expireAt={form.expireAt}
          hasPassword={short.hasPassword}
          domains={domains}
        />
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
