import { locale, msg } from '../i18n/current';
import { t } from '../i18n/text';

/** The live figures as GET /api/figures answers them (already rounded down by the server). */
export interface Figures {
  links: number;
  visits: number;
  users: number;
}

/** A rounded-down count as a card shows it: '1.000+', '40+'; none is '0'. */
export function figureValue(n: number): string {
  return n > 0 ? `${n.toLocaleString(locale())}+` : '0';
}

/** The three cards: the specification's fixed figures, or the instance's live ones. */
export function figureCards(live: Figures | null): { value: string; text: string }[] {
  if (!live)
    return [
      { value: msg.start.statLinks, text: msg.start.statLinksText },
      { value: msg.start.statCalls, text: msg.start.statCallsText },
      { value: msg.start.statUsers, text: msg.start.statUsersText },
    ];
  return [
    { value: t(msg.figures.links, { n: figureValue(live.links) }), text: msg.start.statLinksText },
    {
      value: t(msg.figures.visits, { n: figureValue(live.visits) }),
      text: msg.start.statCallsText,
    },
    { value: t(msg.figures.users, { n: figureValue(live.users) }), text: msg.start.statUsersText },
  ];
}
