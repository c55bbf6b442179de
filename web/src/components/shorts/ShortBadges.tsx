import Badge from 'react-bootstrap/Badge';
import type { Short } from '../../api/client';
import { shortBadges, type ShortBadge } from '../../lib/short-badges';
import { useT } from '../../i18n/context';

/** Colours with AA contrast in light and dark (text-bg-* picks the text colour). */
const BG: Record<ShortBadge, string> = {
  expired: 'secondary',
  usedUp: 'secondary',
  broken: 'warning',
  password: 'info',
  dangerous: 'danger',
};

/** A short's state as badges (abgelaufen, aufgebraucht, Passwort, gefährlich); none: nothing. */
export function ShortBadges({ short }: { short: Short }) {
  const { msg } = useT();
  const badges = shortBadges(short);
  if (badges.length === 0) return null;
  return (
    <span className="d-inline-flex flex-wrap gap-1" data-testid="short-badges">
      {badges.map((b) => (
        <Badge
          key={b}
          bg={BG[b]}
          text={b === 'password' || b === 'broken' ? 'dark' : undefined}
          data-badge={b}
        >
          {msg.shorts.badges[b]}
        </Badge>
      ))}
    </span>
  );
}
