import { Link } from 'wouter';
import { WebhooksPanel } from '../components/webhooks/WebhooksPanel';
import { useT } from '../i18n/context';

/** /account/webhooks: the caller's webhooks (his own and his teams'), their secrets and logs. */
export default function WebhooksPage() {
  const { msg } = useT();
  return (
    <section aria-labelledby="webhooks-title">
      <WebhooksPanel
        heading={
          <h1 id="webhooks-title" className="mb-0">
            {msg.webhooks.title}
          </h1>
        }
        intro={
          <>
            {msg.webhooks.intro} <Link href="/account">{msg.webhooks.toAccount}</Link>
          </>
        }
      />
    </section>
  );
}
