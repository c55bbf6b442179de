import { msg } from '../i18n/current';
import { t } from '../i18n/text';

/**
 * The document title of a route (App.tsx sets it on every navigation): the page's heading and the
 * product's name, so tabs, history and bookmarks tell pages apart. The start page keeps the
 * specification's title.
 */
export function titleFor(path: string): string {
  const page = (title: string) => t(msg.titles.page, { title });
  const short = /^\/s\/([^/]+)\/([^/]+)\/?$/.exec(path);
  if (short) {
    let code = short[1];
    try {
      code = decodeURIComponent(code);
    } catch {
      // shown as it is
    }
    switch (short[2]) {
      case 'info':
        return page(t(msg.titles.info, { code }));
      case 'potentially-dangerous':
      case 'potentiallyDangerous':
        return page(msg.dangerous.title);
      case 'password-required':
      case 'passwordRequired':
        return page(msg.password.title);
    }
  }
  const tag = /^\/tags\/([^/]+)\/statistics\/?$/.exec(path);
  if (tag) {
    let name = tag[1];
    try {
      name = decodeURIComponent(name);
    } catch {
      // shown as it is
    }
    return page(t(msg.titles.tagStatistics, { tag: name }));
  }
  const top = path.replace(/\/+$/, '') || '/';
  switch (top) {
    case '/login':
      return page(msg.login.title);
    case '/s':
      return page(msg.lookup.title);
    case '/shorts':
      return page(msg.shorts.title);
    case '/account':
      return page(msg.account.title);
    case '/admin':
      return page(msg.admin.title);
    case '/teams':
      return page(msg.teams.title);
    case '/account/keys':
      return page(msg.apiKeys.title);
    case '/account/webhooks':
      return page(msg.space.webhooksTitle);
    case '/service/offline':
      return page(msg.offline.title);
    default:
      if (top.startsWith('/teams/')) return page(msg.teams.title);
      if (top.startsWith('/invite/')) return page(msg.invite.title);
      return top.startsWith('/admin/') ? page(msg.admin.title) : msg.app.pageTitle;
  }
}
