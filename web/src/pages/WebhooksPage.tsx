import { useWebhooksT } from '../i18n/webhooks-text';
import { Link } from 'wouter';
import { WebhooksPanel } from '../components/webhooks/WebhooksPanel';

/** /account/webhooks: the caller's webhooks (his own and his teams'), their secrets and logs. */
export default function WebhooksPage() {
  const { wm } = useWebhooksT();
  return (
    <section aria-labelledby="webhooks-title">
      <WebhooksPanel
        heading={
          <h1 id="webhooks-title" className="mb-0">
            {wm.webhooks.title}
          </h1>
        }
        intro={
          <>
            {wm.webhooks.intro} <Link href="/account">{wm.webhooks.toAccount}</Link>
          </>
        }
      />
    </section>
  );
}
