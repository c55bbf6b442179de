/**
 * The web client's routes: web/src/App.tsx renders exactly these paths (wouter patterns). Written
 * here, not in the client, because the server keeps codes off them: their first segments are
 * reserved words (limits.ts), so `/{code}` on the main host (follow-path.ts) never shadows a page
 * and a custom code can never take one.
 */
export const CLIENT_ROUTES = {
  start: '/',
  login: '/login',
  shortPrompt: '/s',
  info: '/s/:code/info',
  dangerous: '/s/:code/potentially-dangerous',
  dangerousCamel: '/s/:code/potentiallyDangerous',
  password: '/s/:code/password-required',
  passwordCamel: '/s/:code/passwordRequired',
  notFound: '/s/:code/not-found',
  notFoundCamel: '/s/:code/notFound',
  delete: '/s/:code/delete',
  follow: '/s/:code',
  offline: '/service/offline',
  shorts: '/shorts',
  apiKeys: '/account/keys',
  webhooks: '/account/webhooks',
  account: '/account',
  teams: '/teams',
  team: '/teams/:id',
  invite: '/invite/:token',
  tagStatistics: '/tags/:tag/statistics',
  admin: '/admin',
} as const;

/** The first path segments of the client's routes (`login`, `s`, `service`, …), lower case. */
export const CLIENT_ROUTE_ROOTS: readonly string[] = [
  ...new Set(
    Object.values(CLIENT_ROUTES)
      .map((path) => path.split('/')[1].toLowerCase())
      .filter(Boolean),
  ),
];
