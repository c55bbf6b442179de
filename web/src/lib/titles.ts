import { de, t } from '../i18n/de';

/**
 * The document title of a route (App.tsx sets it on every navigation): the page's heading and the
 * product's name, so tabs, history and bookmarks tell pages apart. The start page keeps the
 * specification's title.
 */
export function titleFor(path: string): string {
  const page = (title: string) => t(de.titles.page, { title });
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
        return page(t(de.titles.info, { code }));
      case 'potentially-dangerous':
      case 'potentiallyDangerous':
        return page(de.dangerous.title);
      case 'password-required':
      case 'passwordRequired':
        return page(de.password.title);
    }
  }
  const top = path.replace(/\/+$/, '') || '/';
  switch (top) {
    case '/login':
      return page(de.login.title);
    case '/s':
      return page(de.lookup.title);
    case '/shorts':
      return page(de.shorts.title);
    case '/account':
      return page(de.account.title);
    case '/admin':
      return page(de.admin.title);
    case '/service/offline':
      return page(de.offline.title);
    default:
      return top.startsWith('/admin/') ? page(de.admin.title) : de.app.pageTitle;
  }
}
