import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { buildShareXConfig, downloadShareX, shareXFileText } from '../../lib/sharex';
import { runtimeConfig } from '../../runtime-config';
import { copyLabel, useCopy } from './useCopy';
import { useT } from '../../i18n/context';

/**
 * Copy the ShareX config or download it as ShareX.sxcu; optionally open the Setup Wizard. With
 * usable own domains, the config's shorts may be put on one of them.
 */
export function ShareXPanel({
  apiKey,
  onWizard,
  domains = [],
}: {
  apiKey: string | null;
  onWizard?: () => void;
  /** The domains the user may put shorts on (verified, enabled). */
  domains?: readonly string[];
}) {
  const { msg } = useT();
  const [copyState, copy] = useCopy();
  const [chosen, setChosen] = useState('');
  const domain = domains.includes(chosen) ? chosen : '';
  const config = apiKey
    ? buildShareXConfig(runtimeConfig.baseUrl, apiKey, undefined, domain)
    : null;
  return (
    <Card className="mb-4" data-testid="sharex-panel">
      <Card.Body>
        <h2 className="h4">{msg.account.sharexTitle}</h2>
        <p className="text-body-secondary">{msg.account.sharexText}</p>
        {!config && <p className="small">{msg.account.sharexNeedsKey}</p>}
        {domains.length > 0 && (
          <Form.Group className="mb-3" controlId="sharex-domain">
            <Form.Label>{msg.account.sharexDomain}</Form.Label>
            <Form.Select value={domain} onChange={(e) => setChosen(e.target.value)}>
              <option value="">{msg.create.mainDomain}</option>
              {domains.map((host) => (
                <option key={host} value={host}>
                  {host}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
        )}
        <div className="d-flex flex-wrap gap-2">
          <Button
            variant="outline-secondary"
            disabled={!config}
            onClick={() => config && void copy(shareXFileText(config))}
            data-testid="sharex-copy"
          >
            <span aria-live="polite">
              {copyLabel(copyState, msg.account, msg.account.sharexCopy)}
            </span>
          </Button>
          <Button
            variant="outline-secondary"
            disabled={!config}
            onClick={() => config && downloadShareX(config)}
          >
            {msg.account.sharexDownload}
          </Button>
          {onWizard && (
            <Button variant="primary" onClick={onWizard}>
              {msg.account.wizardOpen}
            </Button>
          )}
        </div>
      </Card.Body>
    </Card>
  );
}
