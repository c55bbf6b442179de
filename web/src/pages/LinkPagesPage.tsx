import { Link } from 'wouter';
import { LinkPagesPanel } from '../components/linkpages/LinkPagesPanel';
import { useLinkPagesT } from '../i18n/link-pages-text';

/** /account?view=pages: the caller's link pages (his own and his teams') and their editor. */
export default function LinkPagesPage() {
  const { lp } = useLinkPagesT();
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
