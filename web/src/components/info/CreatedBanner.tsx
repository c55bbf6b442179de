import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import type { Short } from '../../api/client';
import { expiresWithin24h } from '../../lib/expiry';
import { canShare, copyLink, shareLink } from './share';
import { useQrT } from '../../i18n/qr-text';

/**
 * After creating (?show_created=true): the one place that says so. The link (the short's
 * `shortUrl`, also on an own domain) in large type over the whole width, 'Kopieren' under it with
 * 'QR-Code' beside, 'Teilen' only where the browser has a share menu; then the expiry hints.
 */
export function CreatedBanner({
  short,
  anonymous,
  onQr,
}: {
  short: Short;
  anonymous: boolean;
  /** Opens the QR code dialog. */
  onQr?: () => void;
}) {
  const { msg, qm } = useQrT();
  const link = short.shortUrl;
  return (
    <Alert variant="success" data-testid="created-banner">
      <Alert.Heading as="h2" className="h5">
        {msg.info.created}
      </Alert.Heading>
      <p className="mb-1">{msg.info.shareLink}</p>
      <p className="fs-4 fw-semibold text-break user-select-all mb-2" data-testid="created-link">
        {link}
      </p>
      <div className="d-flex flex-wrap gap-2 mb-2">
        <Button
          variant="success"
          className="flex-grow-1 flex-sm-grow-0"
          onClick={() => void copyLink(link)}
        >
          {msg.info.copy}
        </Button>
        {canShare() && (
          <Button variant="success" onClick={() => void shareLink(link, short.name ?? short.code)}>
            {msg.info.share}
          </Button>
        )}
        {onQr && (
          <Button variant="success" onClick={onQr}>
            {qm.qr.button}
          </Button>
        )}
      </div>
      {expiresWithin24h(short.expireAt) && <p className="mb-1">{msg.info.expiresSoon}</p>}
      {anonymous && <p className="mb-0">{msg.info.loginForLonger}</p>}
    </Alert>
  );
}
