import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useSnapshot } from 'valtio';
import { sendReport } from '../api/queries/report';
import { errorText } from '../lib/errors';
import {
  REPORT_DESCRIPTION_MAX,
  REPORT_TYPES,
  validateReport,
  type ReportErrors,
  type ReportType,
} from '../lib/report';
import { auth } from '../state/auth';
import { toast } from '../state/toasts';
import { useT } from '../i18n/context';
import { LoginLink } from './LoginLink';
import { TextareaGroup } from './TextareaGroup';

/** The report dialog of the info page: open while the query has show_report; anonymous visitors are asked to log in. */
export function ReportDialog({
  code,
  domain,
  show,
  onClose,
}: {
  code: string;
  /** The own domain the short lives on (null: this service's host). */
  domain?: string | null;
  show: boolean;
  onClose: () => void;
}) {
  const { msg } = useT();
  const a = useSnapshot(auth);
  const [reason, setReason] = useState<ReportType | ''>('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<ReportErrors>({});
  const [busy, setBusy] = useState(false);

  // A fresh form each time the dialog opens.
  const [shown, setShown] = useState(show);
  if (show !== shown) {
    setShown(show);
    if (show) {
      setReason('');
      setDescription('');
      setErrors({});
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const next = validateReport(reason, description, msg.report);
    setErrors(next);
    if (next.reason || next.description || !reason) return;
    setBusy(true);
    try {
      await sendReport(code, { reason, description: description.trim() }, domain);
      toast.success(msg.report.success);
      onClose();
    } catch (err) {
      toast.error(errorText(err, msg.report.errorOther));
    } finally {
      setBusy(false);
    }
  }

  const authenticated = a.status === 'authenticated';
  return (
    <Modal show={show} onHide={onClose} aria-labelledby="report-title">
      <Form onSubmit={(e) => void submit(e)} noValidate>
        <Modal.Header closeButton closeLabel={msg.report.close}>
          <Modal.Title id="report-title">{msg.report.title}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {!authenticated ? (
            <Alert variant="warning" className="mb-0">
              <p>{msg.report.mustLogin}</p>
              <LoginLink className="btn btn-primary btn-sm" />
            </Alert>
          ) : (
            <>
              <p className="text-body-secondary">{msg.report.intro}</p>
              <Form.Group className="mb-3" controlId="report-reason">
                <Form.Label>{msg.report.type}</Form.Label>
                <Form.Select
                  value={reason}
                  isInvalid={Boolean(errors.reason)}
                  onChange={(e) => {
                    setReason(e.target.value as ReportType);
                    setErrors({ ...errors, reason: undefined });
                  }}
                >
                  <option value="">{msg.report.choose}</option>
                  {REPORT_TYPES.map((r) => (
                    <option key={r} value={r}>
                      {msg.report.types[r]}
                    </option>
                  ))}
                </Form.Select>
                <Form.Control.Feedback type="invalid">{errors.reason}</Form.Control.Feedback>
              </Form.Group>
              <TextareaGroup
                id="report-description"
                label={msg.report.description}
                rows={10}
                maxLength={REPORT_DESCRIPTION_MAX}
                value={description}
                error={errors.description ?? ''}
                onChange={(v) => {
                  setDescription(v);
                  setErrors({ ...errors, description: undefined });
                }}
              />
            </>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose}>
            {msg.info.cancel}
          </Button>
          {authenticated && (
            <Button type="submit" variant="danger" disabled={busy}>
              {msg.report.send}
            </Button>
          )}
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
