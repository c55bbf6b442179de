import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { CLIENT_ROUTES } from '@shared/client-routes';
import { api, unwrap, type Short } from '../../api/client';
import { useT } from '../../i18n/context';

/** How many of the user's shorts the start page shows. */
export const LATEST_SHORTS = 5;

/** A short's info page (on an own domain: naming the domain, as the own list does). */
function infoHref(s: Short): string {
  const on = s.domain ? `?domain=${encodeURIComponent(s.domain)}` : '';
  return `/s/${encodeURIComponent(s.code)}/info${on}`;
}

/**
 * The logged-in start page: the user's five latest shorts (GET /api/code, newest first; called
 * directly: the start page loads no react-query), each with its name or code, the link to share
 * and where it leads; then the way to all of them. Nothing while loading, without shorts or when
 * they cannot be read: the create form above is what the page is for.
 */
export default function LatestShorts() {
  const { msg } = useT();
  const [rows, setRows] = useState<readonly Short[] | null>(null);
  useEffect(() => {
    let on = true;
    unwrap(
      api.GET('/api/code', {
        params: { query: { page: 0, size: LATEST_SHORTS, sort: ['createdAt,desc'] } },
      }),
    )
      .then((page) => on && setRows(page.content))
      .catch(() => on && setRows([]));
    return () => {
      on = false;
    };
  }, []);
  if (!rows?.length) return null;
  return (
    <section aria-labelledby="latest-title" className="my-4" data-testid="latest-shorts">
      <div className="d-flex flex-wrap align-items-baseline justify-content-between gap-2">
        <h2 id="latest-title" className="h4">
          {msg.start.latestTitle}
        </h2>
        <Link href={CLIENT_ROUTES.shorts}>{msg.start.latestAll}</Link>
      </div>
      <ul className="list-group">
        {rows.map((s) => (
          <li className="list-group-item" key={s.id} data-testid="latest-short">
            <Link href={infoHref(s)} className="fw-semibold text-break">
              {s.name ?? s.code}
            </Link>
            <div className="small text-body-secondary text-break">
              {s.shortUrl}
              {s.url && <> → {s.url}</>}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
