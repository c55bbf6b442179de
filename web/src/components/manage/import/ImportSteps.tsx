import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { sendImport, type ImportOutcome } from '../../../api/queries/import';
import { invalidateShorts } from '../../../api/queries/shorts';
import { errorText } from '../../../lib/errors';
import { importRefusal, mapColumns, parseImportCsv, type ParsedImport } from '../../../lib/import';
import { toast } from '../../../state/toasts';
import { useTransferT } from '../../../i18n/transfer-text';
import { TextareaGroup } from '../../TextareaGroup';
import { Preview } from './Preview';
import { Result } from './Result';

type Step =
  | { kind: 'choose'; error?: string }
  | { kind: 'preview'; parsed: ParsedImport }
  | { kind: 'sending'; total: number; done: number }
  | { kind: 'result'; outcome: ImportOutcome };

export function ImportSteps({ onClose }: { onClose: () => void }) {
  const { t, xm } = useTransferT();
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const [text, setText] = useState('');
  const client = useQueryClient();

  async function read(csv: string) {
    try {
      const parsed = await parseImportCsv(csv);
      if (parsed.rows.length === 0) return setStep({ kind: 'choose', error: xm.transfer.empty });
      setStep({ kind: 'preview', parsed });
    } catch {
      setStep({ kind: 'choose', error: xm.transfer.unreadable });
    }
  }

  async function start(parsed: ParsedImport) {
    const total = parsed.rows.length;
    setStep({ kind: 'sending', total, done: 0 });
    try {
      const outcome = await sendImport(parsed.rows, (done) =>
        setStep({ kind: 'sending', total, done }),
      );
      setStep({ kind: 'result', outcome });
      toast.success(xm.transfer.done);
    } catch (err) {
      setStep({ kind: 'choose', error: t(xm.transfer.failed, { message: errorText(err) }) });
    } finally {
      void invalidateShorts(client);
    }
  }

  return (
    <>
      <Modal.Header closeButton closeLabel={xm.transfer.close}>
        <Modal.Title id="import-title">{xm.transfer.title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {step.kind === 'choose' && (
          <>
            <p>{xm.transfer.intro}</p>
            {step.error && (
              <Alert variant="danger" data-testid="import-error">
                {step.error}
              </Alert>
            )}
            <Form.Group className="mb-3" controlId="import-file">
              <Form.Label>{xm.transfer.file}</Form.Label>
              <Form.Control
                type="file"
                accept=".csv,text/csv,text/plain"
                onChange={(e) => {
                  const file = (e.target as HTMLInputElement).files?.[0];
                  if (file)
                    void file
                      .text()
                      .then(read, () => setStep({ kind: 'choose', error: xm.transfer.unreadable }));
                }}
              />
            </Form.Group>
            <TextareaGroup
              id="import-text"
              label={xm.transfer.paste}
              rows={5}
              value={text}
              onChange={setText}
            />
          </>
        )}
        {step.kind === 'preview' && <Preview parsed={step.parsed} />}
        {step.kind === 'sending' && (
          <>
            <ProgressBar
              now={(step.done / step.total) * 100}
              aria-label={xm.transfer.title}
              aria-valuetext={t(xm.transfer.progress, { done: step.done, total: step.total })}
            />
            <p className="mt-2 mb-0" aria-live="polite">
              {t(xm.transfer.progress, { done: step.done, total: step.total })}
            </p>
          </>
        )}
        {step.kind === 'result' && <Result outcome={step.outcome} />}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose}>
          {xm.transfer.close}
        </Button>
        {step.kind === 'choose' && (
          <Button onClick={() => void read(text)} disabled={!text.trim()}>
            {xm.transfer.preview}
          </Button>
        )}
        {step.kind === 'preview' && (
          <Button onClick={() => void start(step.parsed)} disabled={!importable(step.parsed)}>
            {xm.transfer.start}
          </Button>
        )}
      </Modal.Footer>
    </>
  );
}

function importable(parsed: ParsedImport): boolean {
  return importRefusal(parsed) === null && mapColumns(parsed.headers).some(([, f]) => f === 'url');
}
