import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import OverlayTrigger from 'react-bootstrap/OverlayTrigger';
import Tooltip from 'react-bootstrap/Tooltip';
import { toast } from '../../state/toasts';
import { ConfirmDialog } from '../ConfirmDialog';
import { copyLabel, useCopy } from './useCopy';
import { useT } from '../../i18n/context';

export interface ApiKeyPanelProps {
  apiKey: string | null;
  loading: boolean;
  /** Creates or renews the key; resolves with the new key or rejects. */
  onGenerate: () => Promise<void>;
}

/**
 * The API key: absent until generated; hidden until revealed; copied ('Kopiert!' for 3 s);
 * generated or renewed only after the confirmation question.
 */
export function ApiKeyPanel({ apiKey, loading, onGenerate }: ApiKeyPanelProps) {
  const { msg } = useT();
  const [revealed, setRevealed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [copyState, copy] = useCopy();
  const hasKey = Boolean(apiKey);

  async function generate() {
    const renewing = hasKey;
    setBusy(true);
    try {
      await onGenerate();
      toast.success(renewing ? msg.account.apiKeyRegenerated : msg.account.apiKeyGenerated);
    } catch {
      toast.error(renewing ? msg.account.apiKeyRegenerateFailed : msg.account.apiKeyGenerateFailed);
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  }

  const field = (
    <InputGroup>
      <Form.Control
        id="api-key"
        readOnly
        className="font-monospace"
        type={hasKey && revealed ? 'text' : 'password'}
        value={apiKey ?? ''}
        placeholder={hasKey ? undefined : msg.account.apiKeyNone}
        aria-describedby={hasKey ? undefined : 'api-key-none'}
      />
      <Button
        variant="outline-secondary"
        disabled={!hasKey}
        onClick={() => setRevealed((r) => !r)}
        aria-pressed={revealed}
      >
        {revealed ? msg.account.hide : msg.account.reveal}
      </Button>
      <Button
        variant={copyState === 'failed' ? 'outline-danger' : 'outline-secondary'}
        disabled={!hasKey}
        onClick={() => void copy(apiKey ?? '')}
        data-testid="api-key-copy"
      >
        <span aria-live="polite">{copyLabel(copyState, msg.account, msg.account.copy)}</span>
      </Button>
    </InputGroup>
  );

  return (
    <Card className="mb-4" data-testid="api-key-panel">
      <Card.Body>
        <h2 className="h4">{msg.account.apiKeyTitle}</h2>
        <p className="text-body-secondary">{msg.account.apiKeyText}</p>
        <Form.Label htmlFor="api-key">{msg.account.apiKeyLabel}</Form.Label>
        {hasKey ? (
          field
        ) : (
          <OverlayTrigger
            placement="top"
            overlay={<Tooltip id="api-key-none-tooltip">{msg.account.apiKeyNone}</Tooltip>}
          >
            <div tabIndex={0} data-testid="api-key-none" aria-describedby="api-key-none">
              {field}
            </div>
          </OverlayTrigger>
        )}
        {!hasKey && (
          <span id="api-key-none" className="visually-hidden">
            {msg.account.apiKeyNone}
          </span>
        )}
        <div className="mt-3">
          <Button
            variant={hasKey ? 'outline-primary' : 'primary'}
            disabled={loading || busy}
            onClick={() => setConfirming(true)}
          >
            {hasKey ? msg.account.regenerate : msg.account.generate}
          </Button>
        </div>
      </Card.Body>
      <ConfirmDialog
        id="api-key-confirm"
        show={confirming}
        title={msg.account.confirmTitle}
        confirmLabel={hasKey ? msg.account.confirmYes : msg.account.generate}
        cancelLabel={msg.account.cancel}
        confirmVariant="primary"
        busy={busy}
        onConfirm={() => void generate()}
        onCancel={() => setConfirming(false)}
      >
        <p className={hasKey ? undefined : 'mb-0'}>{msg.account.apiKeyConfirm}</p>
        {hasKey && <p className="mb-0 text-body-secondary">{msg.account.confirmHint}</p>}
      </ConfirmDialog>
    </Card>
  );
}
