import { useWebhooksT } from '../i18n/webhooks-text';
import { useLinkPagesT } from '../i18n/link-pages-text';
import { lazy, Suspense, useEffect } from 'react';
import Spinner from 'react-bootstrap/Spinner';
import { useSnapshot } from 'valtio';
import { Link, useLocation, useSearch } from 'wouter';
import { useApiKey, useRenewApiKey } from '../api/queries/account';
import { useDomains } from '../api/queries/domains';
import { ApiKeyPanel } from '../components/account/ApiKeyPanel';
import { DomainsPanel } from '../components/account/DomainsPanel';
import { Profile } from '../components/account/Profile';
import { SetupWizard } from '../components/account/SetupWizard';
import { ShareXPanel } from '../components/account/ShareXPanel';
import { usableHosts } from '../lib/domains';
import { FLAGS } from '../lib/flag-rule';
import { auth, isAdmin } from '../state/auth';
import { flags } from '../state/flags';
import { showToast, toast } from '../state/toasts';

const LinkPagesPage = lazy(() => import('./LinkPagesPage'));

/**
 * /account, and /account?view=pages (the link pages): one lazy chunk for both, so the link pages
 * add no route of their own to the entry (the first visit's budget, first-visit-weight.spec.ts).
 */
export default function AccountRoute() {
  const view = new URLSearchParams(useSearch()).get('view');
  if (view !== 'pages') return <AccountPage />;
  return (
    <Suspense fallback={<Spinner animation="border" role="status" />}>
      <LinkPagesPage />
    </Suspense>
  );
}

/**
 * /account: profile, API key, ShareX (with the setup wizard when its experiment is on) and the
 * own domains.
 */
function AccountPage() {
  const { msg, wm } = useWebhooksT();
  const { lp } = useLinkPagesT();
  const a = useSnapshot(auth);
  const f = useSnapshot(flags);
  const search = useSearch();
  const [location, navigate] = useLocation();
  const apiKey = useApiKey();
  const renew = useRenewApiKey();
  const domains = useDomains();
  const wizardEnabled = Boolean(f.enabled[FLAGS.accountWizard]);
  const showWizard = wizardEnabled && new URLSearchParams(search).get('show_wizard') === 'true';

  // A key that cannot be loaded is said once (the panel then offers to generate one).
  const loadFailed = apiKey.isError;
  useEffect(() => {
    if (loadFailed) showToast('error', msg.account.apiKeyLoadError, { id: 'api-key-load' });
  }, [loadFailed, msg.account.apiKeyLoadError]);

  const generate = async () => {
    await renew.mutateAsync({});
  };

  const setWizard = (open: boolean) => {
    const q = new URLSearchParams(search);
    if (open) q.set('show_wizard', 'true');
    else q.delete('show_wizard');
    const qs = q.toString();
    navigate(`${location}${qs ? `?${qs}` : ''}`, { replace: !open });
  };

  if (!a.user) return <Spinner animation="border" role="status" />;
  const key = apiKey.data ?? null;

  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title" className="mb-3">
        {msg.account.title}
      </h1>
      <Profile user={a.user} />
      <ApiKeyPanel apiKey={key} loading={apiKey.isPending} onGenerate={generate} />
      <p className="mb-4">
        <Link href="/account/keys" data-testid="account-more-keys">
          {msg.space.moreKeys}
        </Link>
        <br />
        <Link href="/account/webhooks" data-testid="account-webhooks">
          {wm.webhooks.accountLink}
        </Link>
        <br />
        <Link href="/account?view=pages" data-testid="account-pages">
          {lp.linkPages.accountLink}
        </Link>
      </p>
      <ShareXPanel
        apiKey={key}
        onWizard={wizardEnabled ? () => setWizard(true) : undefined}
        domains={usableHosts(domains.data ?? [])}
      />
      <DomainsPanel userId={a.user.id} admin={isAdmin(a.user)} />
      {wizardEnabled && (
        <SetupWizard
          show={showWizard}
          apiKey={key}
          onClose={() => setWizard(false)}
          onGenerate={() => {
            // No key yet, so nothing is lost: the wizard generates it directly.
            generate()
              .then(() => toast.success(msg.account.apiKeyGenerated))
              .catch(() => toast.error(msg.account.apiKeyGenerateFailed));
          }}
        />
      )}
    </section>
  );
}
