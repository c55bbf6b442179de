import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useSnapshot } from 'valtio';
import { de } from '../i18n/de';
import { reportErrorMessage } from '../lib/errors';
import { sendReport, REPORT_TYPES, type ReportType } from '../lib/report';
import { auth } from '../state/auth';
import { toast } from '../state/toasts';

export function ReportDialog({ code, show, onClose }: { code: string; show: boolean; onClose: () => void }) {
  const a = useSnapshot(auth);
  const [reason, setReason] = useState<ReportType | ''>('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<{ reason?: string; description?: string }>({});
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const next: typeof errors = {};
    if (!reason) next.reason = de.report.typeRequired;
    if (!description.trim()) next.description = de.report.descriptionRequired;
    setErrors(next);
    if (next.reason || next.description || !reason) return;
    setBusy(true);
    try {
      await sendReport(code, { reason, description: description.trim() });
      toast.success(de.report.success);
      onClose();
    } catch (err) {
      toast.error(reportErrorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal show={show} onHide={onClose} aria-labelledby="report-title">
      <Form onSubmit={(e) => void submit(e)} noValidate>
        <Modal.Header closeButton closeLabel={de.info.cancel}>
          <Modal.Title id="report-title">{de.report.title}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {a.status !== 'authenticated' ? (
            <Alert variant="warning">{de.report.mustLogin}</Alert>
          ) : (
            <>
              <Form.Group className="mb-3" controlId="report-reason">
                <Form.Label>{de.report.type}</Form.Label>
                <Form.Select value={reason} isInvalid={Boolean(errors.reason)} onChange={(e) => setReason(e.target.value as ReportType)}>
                  <option value="">–</option>
                  {REPORT_TYPES.map((r) => (
                    <option key={r} value={r}>
                      {de.report.types[r]}
                    </option>
                  ))}
                </Form.Select>
                <Form.Control.Feedback type="invalid">{errors.reason}</Form.Control.Feedback>
              </Form.Group>
              <Form.Group controlId="report-description">
                <Form.Label>{de.report.description}</Form.Label>
                <Form.Control
                  as="textarea"
                  rows={10}
                  value={description}
                  isInvalid={Boolean(errors.description)}
                  onChange={(e) => setDescription(e.target.value)}
                />
                <Form.Control.Feedback type="invalid">{errors.description}</Form.Control.Feedback>
              </Form.Group>
            </>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose}>
            {de.info.cancel}
          </Button>
          {a.status === 'authenticated' && (
            <Button type="submit" variant="danger" disabled={busy}>
              {de.report.send}
            </Button>
          )}
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
