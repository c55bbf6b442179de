import type { QrStyle } from '@shared/qr-style';
import { lazy, Suspense, useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { shortLink } from '../../runtime-config';
import { copyLabel, useCopy } from '../account/useCopy';
import { CopyIcon } from '../shorts/icons';
import { useQrT } from '../../i18n/qr-text';
import { effectiveQrStyle, qrImageUrl, sameQrStyle } from '../../lib/qr-style';

/** The style's inputs and their words: a chunk of their own, loaded when the dialog opens. */
const QrStylePanel = lazy(() => import('./QrStylePanel'));

/** How long the style rests before the preview asks for it (each new image is a render). */
const PREVIEW_DELAY_MS = 300;

export interface QrDialogProps {
  code: string;
  /** The own domain the short lives on (null: this service's host). */
  domain?: string | null;
  /** The short's link (its `shortUrl`: on an own domain, that domain's). */
  link?: string;
  show: boolean;
  onClose: () => void;
  /** The short's id (saving the style needs it). */
  id?: string;
  /** The short's stored style (shown to its owners); none: black on white. */
  qrStyle?: QrStyle | null;
  /** The caller may change the short: offers 'Als Standard speichern'. */
  canSave?: boolean;
}

/**
 * The QR code of a short's link (served by the server), the link under it with a copy button, the
 * style (colours, error correction, margin) with a live preview, the downloads in that style and,
 * for its owners, saving the style as the short's default; 'Schließen' alone in the footer, so
 * nothing wraps on a phone. Each opening starts from the short's stored style.
 */
export function QrDialog({ show, onClose, ...props }: QrDialogProps) {
  const { qm } = useQrT();
  return (
    <Modal show={show} onHide={onClose} aria-labelledby="qr-title" centered>
      <Modal.Header closeButton closeLabel={qm.qr.close}>
        <Modal.Title id="qr-title">{qm.qr.title}</Modal.Title>
      </Modal.Header>
      <QrBody {...props} />
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose}>
          {qm.qr.close}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

function QrBody({
  code,
  domain,
  link = shortLink(code),
  id,
  qrStyle,
  canSave = false,
}: Omit<QrDialogProps, 'show' | 'onClose'>) {
  const { qm, t } = useQrT();
  const [copyState, copy] = useCopy();
  const stored = qrStyle ?? null;
  const effective = effectiveQrStyle(stored);
  // The style as chosen (null while the server would refuse it) and the preview's, which follows
  // it once it rests.
  const [chosen, setChosen] = useState<QrStyle | null>(effective);
  const [preview, setPreview] = useState<QrStyle>(effective);
  useEffect(() => {
    if (chosen === null || sameQrStyle(chosen, preview)) return;
    const timer = setTimeout(() => setPreview(chosen), PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [chosen, preview]);
  // The images of a short on an own domain: `?domain=` names it (this page is on the main host).
  const svgOf = (style: QrStyle) => qrImageUrl(code, 'svg', style, effective, { domain });
  const pngOf = (style: QrStyle) =>
    qrImageUrl(code, 'png', style, effective, { domain, size: 1024 });
  const download = (href: string | undefined, name: string, label: string) => (
    <a
      className={`btn btn-outline-primary${href ? '' : ' disabled'}`}
      href={href}
      aria-disabled={href ? undefined : true}
      download={name}
    >
      {label}
    </a>
  );
  return (
    <Modal.Body className="text-center">
      {/* In the chosen style (the server keeps its contrast); black on white by default. */}
      <img
        src={svgOf(preview)}
        alt={t(qm.qr.alt, { link })}
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
          {copyLabel(copyState, qm.qr, qm.qr.copy)}
        </Button>
      </div>
      <Suspense fallback={<Spinner animation="border" size="sm" role="status" className="mt-3" />}>
        <QrStylePanel
          initial={effective}
          onChange={setChosen}
          save={canSave && id ? { id, stored, style: chosen } : undefined}
        />
      </Suspense>
      {/* The downloads in the chosen style; none while the server would refuse it. */}
      <div className="d-grid gap-2 d-sm-flex justify-content-sm-center mt-3">
        {download(chosen ? svgOf(chosen) : undefined, `${code}.svg`, qm.qr.downloadSvg)}
        {download(chosen ? pngOf(chosen) : undefined, `${code}.png`, qm.qr.downloadPng)}
      </div>
    </Modal.Body>
  );
}
