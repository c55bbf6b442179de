import {
  contrastRatio,
  QR_EC_LEVELS,
  QR_MARGIN_MAX,
  QR_MIN_CONTRAST,
  normalizeHex,
  type QrEcLevel,
  type QrStyle,
} from '@shared/qr-style';
import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Row from 'react-bootstrap/Row';
import { useUpdateShort } from '../../api/queries/shorts';
import { useQrT } from '../../i18n/qr-text';
import { errorText } from '../../lib/errors';
import { sameQrStyle } from '../../lib/qr-style';
import { toast } from '../../state/toasts';

export interface QrStylePanelProps {
  /** The style the inputs start with (the short's stored one, else the default). */
  initial: QrStyle;
  /** Every change: the style as chosen, or null while a colour is malformed or the contrast too low. */
  onChange: (style: QrStyle | null) => void;
  /** For its owners: the short to save the style on (PATCH qrStyle), with its stored style. */
  save?: { id: string; stored: QrStyle | null; style: QrStyle | null };
}

/** The contrast as shown: cut (not rounded) to two decimals, so 2.996 never reads as 3. */
const shownRatio = (ratio: number, locale: string) =>
  (Math.floor(ratio * 100) / 100).toLocaleString(locale, { maximumFractionDigits: 2 });

/**
 * The QR dialog's style (a lazy chunk with its words): foreground and background (a colour picker
 * and its hex value each), error correction, margin, the contrast rule as the server checks it
 * (shared/qr-style.ts) said before anything is asked, and for owners 'Als Standard speichern'.
 */
export default function QrStylePanel({ initial, onChange, save }: QrStylePanelProps) {
  const { qm, t, locale } = useQrT();
  const id = useId();
  const [text, setText] = useState({ fg: `#${initial.fg}`, bg: `#${initial.bg}` });
  const [ec, setEc] = useState<QrEcLevel>(initial.ec);
  const [margin, setMargin] = useState(initial.margin);
  const fg = normalizeHex(text.fg);
  const bg = normalizeHex(text.bg);
  const ratio = fg !== null && bg !== null ? contrastRatio(fg, bg) : null;
  const low = ratio !== null && ratio < QR_MIN_CONTRAST;

  function update(next: Partial<{ fg: string; bg: string; ec: QrEcLevel; margin: number }>) {
    const colours = {
      fg: next.fg ?? text.fg,
      bg: next.bg ?? text.bg,
    };
    setText(colours);
    const style = {
      fg: normalizeHex(colours.fg),
      bg: normalizeHex(colours.bg),
      ec: next.ec ?? ec,
      margin: next.margin ?? margin,
    };
    if (next.ec) setEc(next.ec);
    if (next.margin !== undefined) setMargin(next.margin);
    const ok =
      style.fg !== null &&
      style.bg !== null &&
      contrastRatio(style.fg, style.bg) >= QR_MIN_CONTRAST;
    onChange(ok ? (style as QrStyle) : null);
  }

  const colour = (part: 'fg' | 'bg') => {
    const valid = normalizeHex(text[part]);
    const label = qm.qr.style[part];
    return (
      <Col xs={12} sm={6}>
        <Form.Label htmlFor={`${id}-${part}`} className="mb-1">
          {label}
        </Form.Label>
        <InputGroup hasValidation>
          <Form.Control
            type="color"
            id={`${id}-${part}`}
            className="flex-grow-0"
            value={`#${valid ?? initial[part]}`}
            onChange={(e) => update({ [part]: e.target.value })}
            data-testid={`qr-${part}-picker`}
          />
          <Form.Control
            type="text"
            value={text[part]}
            aria-label={t(qm.qr.style.hex, { colour: label })}
            spellCheck={false}
            maxLength={7}
            isInvalid={valid === null}
            aria-invalid={valid === null ? true : undefined}
            aria-describedby={valid === null ? `${id}-${part}-invalid` : undefined}
            onChange={(e) => update({ [part]: e.target.value.trim() })}
            data-testid={`qr-${part}-hex`}
          />
          <Form.Control.Feedback type="invalid" id={`${id}-${part}-invalid`}>
            {qm.qr.style.hexInvalid}
          </Form.Control.Feedback>
        </InputGroup>
      </Col>
    );
  };

  return (
    <fieldset className="text-start mt-3" data-testid="qr-style">
      <legend className="h6 mb-2">{qm.qr.style.title}</legend>
      <Row className="g-2">
        {colour('fg')}
        {colour('bg')}
        <Col xs={7}>
          <Form.Label htmlFor={`${id}-ec`} className="mb-1">
            {qm.qr.style.ec}
          </Form.Label>
          <Form.Select
            id={`${id}-ec`}
            value={ec}
            onChange={(e) => update({ ec: e.target.value as QrEcLevel })}
          >
            {QR_EC_LEVELS.map((level) => (
              <option key={level} value={level}>
                {qm.qr.style.ecLevels[level]}
              </option>
            ))}
          </Form.Select>
        </Col>
        <Col xs={5}>
          <Form.Label htmlFor={`${id}-margin`} className="mb-1">
            {qm.qr.style.margin}
          </Form.Label>
          <Form.Select
            id={`${id}-margin`}
            value={margin}
            onChange={(e) => update({ margin: Number(e.target.value) })}
          >
            {Array.from({ length: QR_MARGIN_MAX + 1 }, (_, n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </Form.Select>
        </Col>
      </Row>
      <p
        className={`small mt-2 mb-0 ${low ? 'text-danger' : 'text-body-secondary'}`}
        aria-live="polite"
        data-testid="qr-contrast"
      >
        {ratio === null
          ? null
          : low
            ? t(qm.qr.style.lowContrast, {
                ratio: shownRatio(ratio, locale),
                min: QR_MIN_CONTRAST,
              })
            : t(qm.qr.style.contrast, { ratio: shownRatio(ratio, locale) })}
      </p>
      {save && <SaveQrStyle {...save} />}
    </fieldset>
  );
}

/** 'Als Standard speichern': the chosen style as the short's `qrStyle` (PATCH), for its owners. */
function SaveQrStyle({ id, stored, style }: NonNullable<QrStylePanelProps['save']>) {
  const { qm } = useQrT();
  const update = useUpdateShort();
  const isDefault = style !== null && sameQrStyle(style, stored);

  async function saveDefault() {
    if (style === null) return;
    try {
      await update.mutateAsync({ params: { path: { id } }, body: { qrStyle: style } });
      toast.success(qm.qr.style.saved);
    } catch (err) {
      toast.error(errorText(err));
    }
  }

  return (
    <div className="d-flex flex-wrap align-items-center gap-2 mt-2">
      <Button
        variant="outline-secondary"
        size="sm"
        disabled={style === null || isDefault || update.isPending}
        onClick={() => void saveDefault()}
        data-testid="qr-save-default"
      >
        {qm.qr.style.save}
      </Button>
      {isDefault && <span className="small text-body-secondary">{qm.qr.style.isDefault}</span>}
    </div>
  );
}
