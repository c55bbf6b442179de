import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { buildShareXConfig, downloadShareX } from '../../lib/sharex';
import { runtimeConfig } from '../../runtime-config';
import { useT } from '../../i18n/context';

/** Step by step through installing the ShareX config (download/import the .sxcu, set as URL shortener, test). */
export function SetupWizard({
  show,
  apiKey,
  onClose,
  onGenerate,
}: {
  show: boolean;
  apiKey: string | null;
  onClose: () => void;
  /** Opens the key generation (with its confirmation) when there is no key yet. */
  onGenerate: () => void;
}) {
  const { msg, t } = useT();
  const steps = msg.account.wizard.steps;
  const [step, setStep] = useState(0);
  // Each opening starts at the first step.
  const [shown, setShown] = useState(show);
  if (show !== shown) {
    setShown(show);
    if (show) setStep(0);
  }
  const current = steps[step];
  const last = step === steps.length - 1;
  return (
    <Modal
      show={show}
      onHide={onClose}
      size="lg"
      aria-labelledby="wizard-title"
      data-testid="setup-wizard"
    >
      <Modal.Header closeButton closeLabel={msg.account.wizard.close}>
        <Modal.Title id="wizard-title">{msg.account.wizard.title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="small text-body-secondary mb-1">
          {t(msg.account.wizard.stepOf, { step: step + 1, count: steps.length })}
        </p>
        <ProgressBar
          now={((step + 1) / steps.length) * 100}
          className="mb-3"
          aria-hidden="true"
          style={{ height: '0.4rem' }}
        />
        <h3 className="h5">{current.title}</h3>
        <p>{current.text}</p>
        {step === 1 && !apiKey && (
          <Button variant="primary" onClick={onGenerate}>
            {msg.account.generate}
          </Button>
        )}
        {step === 2 && (
          <>
            {!apiKey && <p className="small">{msg.account.sharexNeedsKey}</p>}
            <Button
              variant="primary"
              disabled={!apiKey}
              onClick={() =>
                apiKey && downloadShareX(buildShareXConfig(runtimeConfig.baseUrl, apiKey))
              }
            >
              {msg.account.sharexDownload}
            </Button>
          </>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button
          variant="secondary"
          disabled={step === 0}
          onClick={() => setStep((s) => Math.max(0, s - 1))}
        >
          {msg.account.wizard.back}
        </Button>
        {last ? (
          <Button variant="primary" onClick={onClose}>
            {msg.account.wizard.done}
          </Button>
        ) : (
          <Button
            variant="primary"
            onClick={() => setStep((s) => Math.min(steps.length - 1, s + 1))}
          >
            {msg.account.wizard.next}
          </Button>
        )}
      </Modal.Footer>
    </Modal>
  );
}
