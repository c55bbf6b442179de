import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import type { Short } from '../../api/client';
import { formatDateTime } from '../../lib/expiry';
import { shortTags } from '../../lib/tags-api';
import { codeLink, COLUMNS, type ShortColumn } from './columns';
import { RowActions, type RowActionHandlers } from './RowActions';
import { TagChips } from '../tags/TagChips';
import { ShortBadges } from './ShortBadges';
import { UrlCell } from './UrlCell';
import { useT } from '../../i18n/context';

/** What every card shows anyway; the other visible columns follow as name and value. */
const ALWAYS: readonly ShortColumn[] = ['name', 'code', 'shortUrl', 'url', 'visits', 'expireAt'];

export interface ShortCardsProps extends RowActionHandlers {
  rows: readonly Short[];
  /** The columns chosen in the column filter: those beyond the card's own show on it too. */
  columns?: readonly ShortColumn[];
  /** With both: a checkbox per card (the table's selection, for deleting several). */
  selected?: ReadonlySet<string>;
  onSelect?: (id: string, on: boolean) => void;
  /** A viewer's list: no edit, move or delete. */
  readOnly?: boolean;
}

/**
 * The own shorts as cards: on phones, and wherever the table does not fit (a narrow window, many
 * columns). Each card: name or code, badges, tags, the short link, the target, visits and expiry,
 * the actions.
 */
export function ShortCards({
  rows,
  columns = [],
  selected,
  onSelect,
  readOnly = false,
  ...actions
}: ShortCardsProps) {
  const { msg, t, locale } = useT();
  const extra = columns.filter((c) => !ALWAYS.includes(c));
  return (
    <ul
      className="short-cards list-unstyled mb-3"
      aria-label={msg.shorts.cards}
      data-testid="short-cards"
    >
      {rows.map((s) => (
        <li key={s.id}>
          <Card className="short-card h-100" data-testid="short-card" data-code={s.code}>
            <Card.Body className="p-3 d-flex flex-column">
              <div className="d-flex align-items-start gap-2">
                {selected && onSelect && (
                  <Form.Check
                    id={`select-card-${s.id}`}
                    aria-label={t(msg.shorts.selectRow, { code: s.code })}
                    checked={selected.has(s.id)}
                    onChange={(e) => onSelect(s.id, e.target.checked)}
                  />
                )}
                <div className="min-w-0 flex-grow-1">
                  {s.name && <div className="fw-semibold text-break">{s.name}</div>}
                  <div className="d-flex flex-wrap align-items-center gap-2" data-column="code">
                    {codeLink(s)}
                    <ShortBadges short={s} />
                  </div>
                  {shortTags(s).length > 0 && (
                    <div className="mt-1" data-column="tags">
                      <TagChips short={s} />
                    </div>
                  )}
                </div>
              </div>
              <div
                className="small text-body-secondary text-truncate"
                title={s.shortUrl}
                data-column="shortUrl"
              >
                {s.shortUrl}
              </div>
              <div className="small" data-column="url">
                <UrlCell url={s.url} />
              </div>
              <dl className="short-card-facts small mb-2 mt-1" data-testid="short-card-facts">
                <div>
                  <dt>{msg.shorts.columns.visits}</dt>
                  <dd data-testid="card-visits" data-column="visits">
                    {(s.visits ?? 0).toLocaleString(locale)}
                  </dd>
                </div>
                <div>
                  <dt>{msg.shorts.columns.expireAt}</dt>
                  <dd data-testid="card-expiry" data-column="expireAt" className="text-nowrap">
                    {s.expireAt ? formatDateTime(s.expireAt) : msg.shorts.never}
                  </dd>
                </div>
                {extra.map((c) => (
                  <div key={c} className="min-w-0 mw-100">
                    <dt>{COLUMNS[c].label}</dt>
                    <dd data-column={c} className="text-break">
                      {COLUMNS[c].cell(s)}
                    </dd>
                  </div>
                ))}
              </dl>
              <div className="mt-auto">
                <RowActions short={s} readOnly={readOnly} {...actions} />
              </div>
            </Card.Body>
          </Card>
        </li>
      ))}
    </ul>
  );
}
