import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import type { Short } from '../../api/client';
import { useUsableDomains } from '../../api/queries/domains';
import { useUpdateShort } from '../../api/queries/shorts';
import { errorText, shortFieldErrors, type ShortFieldErrors } from '../../lib/errors';
import { rulesProblemAt, type RulesProblemAt } from '../../lib/rules';
import { changesOf, fieldsOf } from '../../lib/short-form';
import { toast } from '../../state/toasts';
import { ShortFields, useShortForm } from '../ShortFields';
import { useT } from '../../i18n/context';
import { forgetTagSuggestions } from '../../lib/tags-api';

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
    <Modal
      show={short !== null}
      onHide={onClose}
      aria-labelledby="edit-short-title"
      dialogClassName="edit-short-modal"
    >
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
  const { msg, t } = useT();
  const form = useShortForm(
    () => fieldsOf(short),
    short.expireAt ? new Date(short.expireAt) : null,
  );
  const update = useUpdateShort();
  const domains = useUsableDomains();
  const [errors, setErrors] = useState<ShortFieldErrors>({});
  const [rulesAt, setRulesAt] = useState<RulesProblemAt | undefined>();
  // Asking whether the changed code may break the old one's links (the second save confirms).
  const [confirming, setConfirming] = useState(false);

  function change(c: Parameters<typeof form.change>[0]) {
    form.change(c);
    // A field changed again: its server error no longer applies.
    setErrors((e) => {
      const next = { ...e };
      for (const k of Object.keys(c)) delete next[k as keyof ShortFieldErrors];
      return next;
    });
    if (c.code !== undefined) setConfirming(false);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!form.expiryUnderstood) return void toast.error(msg.edit.expiryNotUnderstood);
    const body = changesOf(short, form.values, form.expireAt);
    if (Object.keys(body).length === 0) return void toast.info(msg.edit.noChanges);
    // A changed code breaks every shared link and printed QR code: ask first.
    if (body.code !== undefined && !confirming) return setConfirming(true);
    setConfirming(false);
    try {
      const saved = await update.mutateAsync({ params: { path: { id: short.id } }, body });
      toast.success(msg.edit.saved);
      forgetTagSuggestions();
      onSaved?.(saved);
      onClose();
    } catch (err) {
      const fields = shortFieldErrors(err);
      setErrors(fields);
      setRulesAt(rulesProblemAt(err));
      // Errors of fields show at their fields; the toast then only says that nothing was saved.
      toast.error(
        Object.keys(fields).length > 0 ? msg.edit.fieldErrors : errorText(err, msg.edit.errorOther),
      );
    }
  }

  return (
    <Form onSubmit={(e) => void submit(e)} data-testid="edit-short-form">
      <Modal.Header closeButton closeLabel={msg.edit.close}>
        <Modal.Title id="edit-short-title">{msg.edit.title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <ShortFields
          mode="edit"
          loggedIn
          values={form.values}
          onChange={change}
          errors={errors}
          rulesProblemAt={errors.rules === undefined ? undefined : rulesAt}
          expireAt={form.expireAt}
          hasPassword={short.hasPassword}
          tagsTeam={short.team?.id ?? null}
          domains={domains}
        />
        {confirming && (
          <Alert variant="warning" className="mb-0" data-testid="code-change-warning">
            <Alert.Heading as="h2" className="h6">
              {msg.edit.codeChangedTitle}
            </Alert.Heading>
            <p className="mb-0">
              {t(msg.edit.codeChanged, { old: short.code, code: form.values.code.trim() })}
            </p>
          </Alert>
        )}
      </Modal.Body>
      <Modal.Footer>
        {confirming ? (
          <>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              {msg.edit.codeChangedBack}
            </Button>
            <Button type="submit" variant="warning" disabled={update.isPending} autoFocus>
              {msg.edit.codeChangedConfirm}
            </Button>
          </>
        ) : (
          <>
            <Button variant="secondary" onClick={onClose}>
              {msg.edit.cancel}
            </Button>
            <Button type="submit" disabled={update.isPending}>
              {msg.edit.save}
            </Button>
          </>
        )}
      </Modal.Footer>
    </Form>
  );
}
