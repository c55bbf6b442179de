import { lazy, Suspense } from 'react';
import Spinner from 'react-bootstrap/Spinner';
import { Link, useSearch } from 'wouter';
import { LinkPagesPanel } from '../components/linkpages/LinkPagesPanel';
import { useLinkPagesT } from '../i18n/link-pages-text';

/** A page's statistics: their own chunk (with the chart), loaded when opened. */
const PageStatistics = lazy(() => import('../components/linkpages/PageStatistics'));

/**
 * /account?view=pages: the caller's link pages (his own and his teams') and their editor;
 * `&stats={id}`: a page's statistics.
 */
export default function LinkPagesPage() {
  const { lp } = useLinkPagesT();
  const stats = new URLSearchParams(useSearch()).get('stats');
  if (stats) {
    return (
      <Suspense fallback={<Spinner animation="border" role="status" />}>
        <PageStatistics key={stats} id={stats} />
      </Suspense>
    );
  }
  return (
    <section aria-labelledby="link-pages-title">
      <h1 id="link-pages-title">{lp.linkPages.title}</h1>
      <p>
        {lp.linkPages.intro} <Link href="/account">{lp.linkPages.toAccount}</Link>
      </p>
      <LinkPagesPanel />
    </section>
  );
}
