import { locale, msg } from '../i18n/current';
import { t } from '../i18n/text';

/** The live figures as GET /api/figures answers them (already rounded down by the server). */
export interface Figures {
  links: number;
  visits: number;
  users: number;
}

/** A rounded-down count as a card shows it: '1.000+', '40+'; none is '0' (never shown: see below). */
export function figureValue(n: number): string {
  return n > 0 ? `${n.toLocaleString(locale())}+` : '0';
}

/** A live count under this shows no card (the server answers it as 0): no zeros on a new instance. */
export const FIGURE_MIN = 10;

/**
 * The cards: the specification's three fixed figures, or the instance's live ones whose count is
 * at least 10 (a new instance shows none rather than zeros).
 */
export function figureCards(live: Figures | null): { value: string; text: string }[] {
  if (!live)
    return [
      { value: msg.start.statLinks, text: msg.start.statLinksText },
      { value: msg.start.statCalls, text: msg.start.statCallsText },
      { value: msg.start.statUsers, text: msg.start.statUsersText },
    ];
  const cards = [
    { n: live.links, label: msg.figures.links, text: msg.start.statLinksText },
    { n: live.visits, label: msg.figures.visits, text: msg.start.statCallsText },
    { n: live.users, label: msg.figures.users, text: msg.start.statUsersText },
  ];
  return cards
    .filter((c) => c.n >= FIGURE_MIN)
    .map((c) => ({ value: t(c.label, { n: figureValue(c.n) }), text: c.text }));
}
