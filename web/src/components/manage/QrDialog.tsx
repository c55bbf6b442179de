import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { shortLink } from '../../runtime-config';
import { copyLabel, useCopy } from '../account/useCopy';
import { CopyIcon } from '../shorts/icons';
import { useT } from '../../i18n/context';

/**
 * The QR code of a short's link (served by the server), the link under it with a copy button, the
 * downloads; 'Schließen' alone in the footer, so nothing wraps on a phone.
 */
export function QrDialog({
  code,
  domain,
  link = shortLink(code),
  show,
  onClose,
}: {
  code: string;
  /** The own domain the short lives on (null: this service's host). */
  domain?: string | null;
  /** The short's link (its `shortUrl`: on an own domain, that domain's). */
  link?: string;
  show: boolean;
  onClose: () => void;
}) {
  const { msg, t } = useT();
  const [copyState, copy] = useCopy();
  const base = `/api/code/${encodeURIComponent(code)}`;
  // The images of a short on an own domain: `?domain=` names it (this page is on the main host).
  const on = domain ? `domain=${encodeURIComponent(domain)}` : '';
  return (
    <Modal show={show} onHide={onClose} aria-labelledby="qr-title" centered>
      <Modal.Header closeButton closeLabel={msg.qr.close}>
        <Modal.Title id="qr-title">{msg.qr.title}</Modal.Title>
      </Modal.Header>
      <Modal.Body className="text-center">
        {/* Dark modules on white with a quiet zone: scannable in dark mode too. */}
        <img
          src={`${base}/qr.svg${on ? `?${on}` : ''}`}
          alt={t(msg.qr.alt, { link })}
          width={256}
          height={256}
          className="qr-image bg-white p-1 rounded border"
          data-testid="qr-image"
        />
        <div className="d-flex align-items-center justify-content-center gap-2 mt-3">
          <code className="text-break text-start" data-testid="qr-link">
            {link}
          </code>
          <Button
            size="sm"
            variant={copyState === 'failed' ? 'outline-danger' : 'outline-secondary'}
            className="flex-shrink-0 d-inline-flex align-items-center gap-1"
            onClick={() => void copy(link)}
            data-testid="qr-copy"
            aria-live="polite"
          >
            <CopyIcon />
            {copyLabel(copyState, msg.qr, msg.qr.copy)}
          </Button>
        </div>
        <div className="d-grid gap-2 d-sm-flex justify-content-sm-center mt-3">
          <a
            className="btn btn-outline-primary"
            href={`${base}/qr.svg${on ? `?${on}` : ''}`}
            download={`${code}.svg`}
          >
            {msg.qr.downloadSvg}
          </a>
          <a
            className="btn btn-outline-primary"
            href={`${base}/qr.png?size=1024${on ? `&${on}` : ''}`}
            download={`${code}.png`}
          >
            {msg.qr.downloadPng}
          </a>
        </div>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose}>
          {msg.qr.close}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
