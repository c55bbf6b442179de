import Alert from 'react-bootstrap/Alert';
import { Link } from 'wouter';
import { useT } from '../../i18n/context';
import { t, type Messages } from '../../i18n/text';
import { LookupForm } from '../LookupForm';

/**
 * Why a short cannot be followed, as far as the follow told (`?reason=` of its not-found redirect):
 * expired, used up, or unknown. Without a reason (a lookup) the page says only that it was not found.
 */
export type DeadReason = 'expired' | 'used-up' | 'unknown' | null;

/** The reason of the page's address: the follow's `reason`, or unknown for a plain not-found redirect. */
export function deadReason(query: URLSearchParams): DeadReason {
  const r = query.get('reason');
  if (r === 'expired' || r === 'used-up' || r === 'unknown') return r;
  return query.get('not_found') === 'true' ? 'unknown' : null;
}

function texts(msg: Messages, reason: DeadReason, code: string): { title: string; text: string } {
  const g = msg.infoPage.gone;
  switch (reason) {
    case 'expired':
      return { title: g.expiredTitle, text: t(g.expired, { code }) };
    case 'used-up':
      return { title: g.usedUpTitle, text: t(g.usedUp, { code }) };
    case 'unknown':
      return { title: g.unknownTitle, text: t(g.unknown, { code }) };
    default:
      return {
        title: g.notFoundTitle,
        text: `${t(msg.info.notFound, { code })} ${g.notFoundHint}`,
      };
  }
}

/** The page of a short that leads nowhere: what happened, a lookup for another one, the way home. */
export function DeadLink({ code, reason }: { code: string; reason: DeadReason }) {
  const { msg } = useT();
  const { title, text } = texts(msg, reason, code);
  return (
    <section data-testid="dead-link">
      <h1 className="h3">{title}</h1>
      <Alert variant="secondary">{text}</Alert>
      <LookupForm />
      <Link href="/" className="btn btn-outline-primary">
        {msg.error.toStart}
      </Link>
    </section>
  );
}
