import { Link, useLocation, useSearch } from 'wouter';
import type { Short } from '../../api/client';
import { useTagsT } from '../../i18n/tags-text';
import { hasTag, shortsHref, tagsOfSearch, withTag } from '../../lib/tag-filter';
import { shortTags } from '../../lib/tags-api';

/**
 * A short's tags as chips (a table cell, a card); nothing for a short without tags. Each chip is a
 * link to the own list filtered by it as well (the list's address: `?tag=`, the space kept), so
 * the filter can be linked and the back button undoes it. A tag the list is filtered by already
 * shows as chosen.
 */
export function TagChips({ short }: { short: Short }) {
  const { t, tm } = useTagsT();
  const [location] = useLocation();
  const search = useSearch();
  const tags = shortTags(short);
  if (tags.length === 0) return null;
  // On the own list the filter grows; elsewhere the chip opens the list with that tag alone.
  const base = location === '/shorts' ? search : '';
  const current = tagsOfSearch(base);
  return (
    <ul
      className="list-unstyled d-flex flex-wrap gap-1 m-0"
      aria-label={t(tm.tags.chips.label, { code: short.code })}
      data-testid="tag-chips"
    >
      {tags.map((tag) => {
        const on = hasTag(current, tag);
        return (
          <li key={tag}>
            <Link
              href={shortsHref(base, withTag(current, tag))}
              className={`badge rounded-pill text-decoration-none tag-chip ${
                on ? 'text-bg-primary' : 'text-bg-light border'
              }`}
              title={t(tm.tags.chips.filterBy, { tag })}
              aria-current={on ? 'true' : undefined}
              data-tag={tag}
            >
              {tag}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
