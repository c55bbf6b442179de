import Card from 'react-bootstrap/Card';
import type { Short } from '../../api/client';
import { codeLink } from './columns';
import { RowActions, type RowActionHandlers } from './RowActions';
import { ShortBadges } from './ShortBadges';
import { UrlCell } from './UrlCell';
import { useT } from '../../i18n/context';

/** The own shorts below the md breakpoint: one card each (name or code, link, badges, actions). */
export function ShortCards({ rows, ...actions }: RowActionHandlers & { rows: readonly Short[] }) {
  const { msg } = useT();
  return (
    <ul
      className="list-unstyled d-flex flex-column gap-2 mb-3"
      aria-label={msg.shorts.cards}
      data-testid="short-cards"
    >
      {rows.map((s) => (
        <li key={s.id}>
          <Card className="short-card" data-testid="short-card" data-code={s.code}>
            <Card.Body className="p-3">
              {s.name && <div className="fw-semibold text-break">{s.name}</div>}
              <div className="d-flex flex-wrap align-items-center gap-2">
                {codeLink(s)}
                <ShortBadges short={s} />
              </div>
              <div className="small text-body-secondary text-truncate" title={s.shortUrl}>
                {s.shortUrl}
              </div>
              <div className="small mb-2">
                <UrlCell url={s.url} />
              </div>
              <RowActions short={s} {...actions} />
            </Card.Body>
          </Card>
        </li>
      ))}
    </ul>
  );
}
