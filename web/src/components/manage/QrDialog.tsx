import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { shortLink } from '../../runtime-config';
import { useT } from '../../i18n/context';

/** The QR code of a short's link (served by the server), its downloads and the link under it. */
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
          className="bg-white p-1 rounded border"
          data-testid="qr-image"
        />
        <p className="mt-3 mb-0 text-break">
          <code>{link}</code>
        </p>
      </Modal.Body>
      <Modal.Footer className="justify-content-between">
        <div className="d-flex gap-2">
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
        <Button variant="secondary" onClick={onClose}>
          {msg.qr.close}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
