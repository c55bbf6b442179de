import Button from 'react-bootstrap/Button';
import type { Short } from '../../api/client';
import { copyLink } from '../info/share';
import { useT } from '../../i18n/context';

export interface RowActionHandlers {
  onQr: (s: Short) => void;
  onEdit: (s: Short) => void;
  onDelete: (s: Short) => void;
}

/** A short's actions in the list (table row and card): copy its link, its QR code, edit, delete. */
export function RowActions({
  short: s,
  onQr,
  onEdit,
  onDelete,
}: RowActionHandlers & { short: Short }) {
  const { msg, t } = useT();
  const actions: Array<[label: string, text: string, variant: string, run: () => void]> = [
    [msg.shorts.copyRow, msg.shorts.copy, 'outline-secondary', () => void copyLink(s.shortUrl)],
    [msg.shorts.qrRow, msg.shorts.qr, 'outline-secondary', () => onQr(s)],
    [msg.edit.buttonRow, msg.edit.button, 'outline-primary', () => onEdit(s)],
    [msg.shorts.deleteRow, msg.shorts.delete, 'outline-danger', () => onDelete(s)],
  ];
  return (
    <div className="row-actions d-inline-flex flex-wrap gap-2">
      {actions.map(([label, text, variant, run]) => (
        <Button
          key={text}
          size="sm"
          className="text-nowrap"
          variant={variant}
          aria-label={t(label, { code: s.code })}
          onClick={run}
        >
          {text}
        </Button>
      ))}
    </div>
  );
}
