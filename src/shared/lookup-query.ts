/**
 * The query parameters of the routes that look a short up by its code: the follow (`/s/{code}`,
 * `GET /api/code/{code}`), its details (`?redirect=false`), metadata, QR codes and the report.
 * Declared once here, without decorators: the follow's fast entry (follow-path.ts, follow-http.ts,
 * before Express, and the Vite config) reads them with these functions from a URLSearchParams, the
 * Nest routes through the DTO built from the same rows (src/follow/dto/lookup-query.dto.ts). A repeated
 * parameter counts by its first value either way.
 */
export const LOOKUP_QUERY = {
  domain: {
    name: 'domain',
    maxLength: 253,
    description:
      'The own domain whose code is meant (a verified host); default: the host the request was sent to',
  },
  password: { name: 'password', description: 'Password of a protected short' },
  redirect: {
    name: 'redirect',
    enum: ['false'],
    description: 'false: answer the Short JSON',
  },
  acceptDanger: {
    name: 'accept_danger',
    enum: ['true'],
    description:
      "true: past a dangerous short's warning; kept on the redirect to the password page (and its wrong and locked answers), whose form posts it again",
  },
} as const;

/** `redirect=false`: the short's details instead of the follow. */
export const asksForDetails = (redirect: string | null | undefined): boolean =>
  redirect === 'false';

/** `accept_danger=true`: the visitor accepted a dangerous short's warning. */
export const acceptsDanger = (acceptDanger: string | null | undefined): boolean =>
  acceptDanger === 'true';

/** A text parameter: missing (null from URLSearchParams) reads as undefined. */
export const textParam = (value: string | null | undefined): string | undefined =>
  value ?? undefined;
