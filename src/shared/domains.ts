/**
 * Own domains, as server and web client both read them (CONTRACT "Own domains").
 *
 * The own list's `domain` filter value for the shorts on this service's own host (as Shlink's
 * `domain=DEFAULT`); any other value is a host.
 */
export const MAIN_HOST_FILTER = 'DEFAULT';
