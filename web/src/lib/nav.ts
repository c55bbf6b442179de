import { msg } from '../i18n/current';

/** A top-bar link and when it shows (login, admin, a feature flag). */
export interface NavItem {
  to: string;
  label: string;
  /** Hidden while this flag is on. */
  hide?: string;
  requireLogin?: boolean;
  requireAdmin?: boolean;
  requireAnonymous?: boolean;
}

export const NAV_ITEMS: NavItem[] = [
  {
    to: '/',
    get label() {
      return msg.nav.start;
    },
  },
  {
    to: '/s',
    get label() {
      return msg.nav.follow;
    },
  },
  {
    to: '/shorts',
    get label() {
      return msg.nav.ownShorts;
    },
    requireLogin: true,
  },
];

export function visibleNavItems(
  items: NavItem[],
  ctx: { authenticated: boolean; admin: boolean; flags: Record<string, boolean> },
): NavItem[] {
  return items.filter(
    (i) =>
      !(i.hide && ctx.flags[i.hide]) &&
      !(i.requireLogin && !ctx.authenticated) &&
      !(i.requireAdmin && !ctx.admin) &&
      !(i.requireAnonymous && ctx.authenticated),
  );
}

/** User names are shown cut at 20 characters with an ellipsis. */
export function cutUsername(name: string, max = 20): string {
  return name.length > max ? `${name.slice(0, max)}…` : name;
}
