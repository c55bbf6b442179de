import Alert from 'react-bootstrap/Alert';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { usePages, usePageStatistics } from '../../api/pages';
import { useLinkPagesT } from '../../i18n/link-pages-text';
import { FLAGS } from '../../lib/flag-rule';
import { flags } from '../../state/flags';
import {
  type Figure,
  StatisticsFrame,
  useStatsRange,
  type ListKey,
} from '../info/statistics/StatisticsPanel';

/** A page keeps no top lists (its links' follows count with their shorts). */
const PAGE_LISTS: readonly ListKey[] = [];
/** Nor its visitors: views (people) and bots only. */
const PAGE_FIGURES: readonly Figure[] = ['visits', 'bots'];

/**
 * /account?view=pages&stats={id}: a link page's views over a range (its owner and its team's
 * members), in the frame of a short's statistics: range, totals, chart and table. Lazy (with
 * uPlot), apart from the pages' list and editor.
 */
export default function PageStatistics({ id }: { id: string }) {
  const { t, lp } = useLinkPagesT();
  const enabled = Boolean(useSnapshot(flags).enabled[FLAGS.statistics]);
  const pages = usePages();
  const page = pages.data?.find((p) => p.id === id) ?? null;
  const range = useStatsRange();
  const result = usePageStatistics(id, range.query, enabled);
  return (
    <section aria-labelledby="page-stats-title" data-testid="page-statistics">
      <h1 id="page-stats-title" className="mb-1 text-break">
        {page ? t(lp.linkPages.statsTitle, { title: page.title }) : lp.linkPages.statistics}
      </h1>
      {page && (
        <p className="mb-1">
          <a href={page.url} target="_blank" rel="noopener noreferrer">
            {page.url}
          </a>
        </p>
      )}
      <p className="text-body-secondary">
        {lp.linkPages.statsIntro} <Link href="/account?view=pages">{lp.linkPages.statsBack}</Link>
      </p>
      {pages.data && !page && (
        <Alert variant="warning" data-testid="page-stats-missing">
          {lp.linkPages.statsNotFound}
        </Alert>
      )}
      {!enabled ? (
        <Alert variant="info" data-testid="page-stats-off">
          {lp.linkPages.statsOff}
        </Alert>
      ) : (
        (!pages.data || page) && (
          <StatisticsFrame
            range={range}
            result={result}
            lists={PAGE_LISTS}
            figures={PAGE_FIGURES}
          />
        )
      )}
    </section>
  );
}
