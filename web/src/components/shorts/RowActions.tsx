import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import type { Short } from '../../api/client';
import { copyLink } from '../info/share';
import { useQrT } from '../../i18n/qr-text';
import { CopyIcon, DeleteIcon, EditIcon, MoveIcon, QrIcon } from './icons';

export interface RowActionHandlers {
  onQr: (s: Short) => void;
  onEdit: (s: Short) => void;
  onDelete: (s: Short) => void;
  /** 'Verschieben nach …' (another space the caller may write to); none: no such action. */
  onMove?: (s: Short) => void;
  /** A viewer's list: only copy and QR, no edit, move or delete. */
  readOnly?: boolean;
}

/**
 * A short's actions in the list: copy its link, its QR code, edit, delete. `compact` (the table):
 * icons on one line, named for screen readers and on hover; else (the cards) icon and word.
 */
export function RowActions({
  short: s,
  compact = false,
  onQr,
  onEdit,
  onDelete,
  onMove,
  readOnly = false,
}: RowActionHandlers & { short: Short; compact?: boolean }) {
  const { msg, qm, t } = useQrT();
  const actions: Array<
    [label: string, text: string, Icon: () => ReactNode, variant: string, run: () => void]
  > = [
    [
      msg.shorts.copyRow,
      msg.shorts.copy,
      CopyIcon,
      'outline-secondary',
      () => void copyLink(s.shortUrl),
    ],
    [qm.qr.row, qm.qr.button, QrIcon, 'outline-secondary', () => onQr(s)],
  ];
  if (!readOnly) {
    actions.push([
      msg.edit.buttonRow,
      msg.edit.button,
      EditIcon,
      'outline-primary',
      () => onEdit(s),
    ]);
    if (onMove) {
      actions.push([
        msg.move.buttonRow,
        msg.move.button,
        MoveIcon,
        'outline-secondary',
        () => onMove(s),
      ]);
    }
    actions.push([
      msg.shorts.deleteRow,
      msg.shorts.delete,
      DeleteIcon,
      'outline-danger',
      () => onDelete(s),
    ]);
  }
  return (
    <div
      className={`row-actions d-inline-flex gap-${compact ? 1 : 2} ${compact ? 'flex-nowrap' : 'flex-wrap'}`}
    >
      {actions.map(([label, text, Icon, variant, run]) => (
        <Button
          key={text}
          size="sm"
          className={`text-nowrap d-inline-flex align-items-center gap-1${compact ? ' btn-icon' : ''}`}
          variant={variant}
          aria-label={t(label, { code: s.code })}
          title={compact ? text : undefined}
          onClick={run}
        >
          <Icon />
          {!compact && <span>{text}</span>}
        </Button>
      ))}
    </div>
  );
}
