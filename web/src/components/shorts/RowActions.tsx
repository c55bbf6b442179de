import Button from 'react-bootstrap/Button';
import type { Short } from '../../api/client';
import { de, t } from '../../i18n/de';
import { copyLink } from '../info/share';

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
  return (
    <div className="row-actions d-inline-flex flex-wrap gap-2">
      <Button
        size="sm"
        className="text-nowrap"
        variant="outline-secondary"
        aria-label={t(de.shorts.copyRow, { code: s.code })}
        onClick={() => void copyLink(s.shortUrl)}
      >
        {de.shorts.copy}
      </Button>
      <Button
        size="sm"
        className="text-nowrap"
        variant="outline-secondary"
        aria-label={t(de.shorts.qrRow, { code: s.code })}
        onClick={() => onQr(s)}
      >
        {de.shorts.qr}
      </Button>
      <Button
        size="sm"
        className="text-nowrap"
        variant="outline-primary"
        aria-label={t(de.edit.buttonRow, { code: s.code })}
        onClick={() => onEdit(s)}
      >
        {de.edit.button}
      </Button>
      <Button
        size="sm"
        className="text-nowrap"
        variant="outline-danger"
        aria-label={t(de.shorts.deleteRow, { code: s.code })}
        onClick={() => onDelete(s)}
      >
        {de.shorts.delete}
      </Button>
    </div>
  );
}
