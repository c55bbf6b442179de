import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { de } from '../../i18n/de';
import { buildShareXConfig, downloadShareX, shareXFileText } from '../../lib/sharex';
import { runtimeConfig } from '../../runtime-config';
import { useCopy } from './useCopy';

/** Copy the ShareX config or download it as ShareX.sxcu; optionally open the Setup Wizard. */
export function ShareXPanel({
  apiKey,
  onWizard,
}: {
  apiKey: string | null;
  onWizard?: () => void;
}) {
  const [copyState, copy] = useCopy();
  const config = apiKey ? buildShareXConfig(runtimeConfig.baseUrl, apiKey) : null;
  return (
    <Card className="mb-4" data-testid="sharex-panel">
      <Card.Body>
        <h2 className="h4">{de.account.sharexTitle}</h2>
        <p className="text-body-secondary">{de.account.sharexText}</p>
        {!config && <p className="small">{de.account.sharexNeedsKey}</p>}
        <div className="d-flex flex-wrap gap-2">
          <Button
            variant="outline-secondary"
            disabled={!config}
            onClick={() => config && void copy(shareXFileText(config))}
            data-testid="sharex-copy"
          >
            <span aria-live="polite">
              {copyState === 'copied'
                ? de.account.copied
                : copyState === 'failed'
                  ? de.account.copyFailed
                  : de.account.sharexCopy}
            </span>
          </Button>
          <Button
            variant="outline-secondary"
            disabled={!config}
            onClick={() => config && downloadShareX(config)}
          >
            {de.account.sharexDownload}
          </Button>
          {onWizard && (
            <Button variant="primary" onClick={onWizard}>
              {de.account.wizardOpen}
            </Button>
          )}
        </div>
      </Card.Body>
    </Card>
  );
}
