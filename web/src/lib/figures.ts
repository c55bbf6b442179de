import { de, t } from '../i18n/de';

/** The live figures as GET /api/figures answers them (already rounded down by the server). */
export interface Figures {
  links: number;
  visits: number;
  users: number;
}

/** A rounded-down count as a card shows it: '1.000+', '40+'; none is '0'. */
export function figureValue(n: number): string {
  return n > 0 ? `${n.toLocaleString('de-DE')}+` : '0';
}

/** The three cards: the specification's fixed figures, or the instance's live ones. */
export function figureCards(live: Figures | null): { value: string; text: string }[] {
  if (!live)
    return [
      { value: de.start.statLinks, text: de.start.statLinksText },
      { value: de.start.statCalls, text: de.start.statCallsText },
      { value: de.start.statUsers, text: de.start.statUsersText },
    ];
  return [
    { value: t(de.figures.links, { n: figureValue(live.links) }), text: de.start.statLinksText },
    { value: t(de.figures.visits, { n: figureValue(live.visits) }), text: de.start.statCallsText },
    { value: t(de.figures.users, { n: figureValue(live.users) }), text: de.start.statUsersText },
  ];
}
