import { useCallback, useEffect, useState } from 'react';
import Spinner from 'react-bootstrap/Spinner';
import { useSnapshot } from 'valtio';
import { useLocation, useSearch } from 'wouter';
import { api, unwrap } from '../api/client';
import { ApiKeyPanel } from '../components/account/ApiKeyPanel';
import { Profile } from '../components/account/Profile';
import { SetupWizard } from '../components/account/SetupWizard';
import { ShareXPanel } from '../components/account/ShareXPanel';
import { de } from '../i18n/de';
import { FLAGS } from '../lib/flag-rule';
import { auth } from '../state/auth';
import { flags } from '../state/flags';
import { toast } from '../state/toasts';

/** GET /api/self/apikey: the key, or null when there is none yet (404). */
async function loadApiKey(): Promise<string | null> {
  const { data, response } = await api.GET('/api/self/apikey');
  if (response.status === 404) return null;
  if (!response.ok || !data)
    throw Object.assign(new Error(de.account.apiKeyLoadError), { status: response.status });
  return data.id;
}

/** PUT /api/self/apikey: creates or renews the key (the old one stops working at once). */
async function renewApiKey(): Promise<string> {
  return (await unwrap(api.PUT('/api/self/apikey'))).id;
}

export default function AccountPage() {
  const a = useSnapshot(auth);
  const f = useSnapshot(flags);
  const search = useSearch();
  const [location, navigate] = useLocation();
  const [loading, setLoading] = useState(true);
  const wizardEnabled = Boolean(f.enabled[FLAGS.accountWizard]);
  const showWizard = wizardEnabled && new URLSearchParams(search).get('show_wizard') === 'true';

  useEffect(() => {
    let alive = true;
    loadApiKey()
      .then((id) => {
        if (alive) auth.apiKey = id ? { id } : null;
      })
      .catch(() => {
        if (alive) toast.error(de.account.apiKeyLoadError);
      })
      .finally(() => {
        if (alive) setLoading(false);
      });
    return () => {
      alive = false;
    };
  }, []);

  const generate = useCallback(async () => {
    const id = await renewApiKey();
    auth.apiKey = { id };
  }, []);

  const setWizard = (open: boolean) => {
    const q = new URLSearchParams(search);
    if (open) q.set('show_wizard', 'true');
    else q.delete('show_wizard');
    const qs = q.toString();
    navigate(`${location}${qs ? `?${qs}` : ''}`, { replace: !open });
  };

  if (!a.user) return <Spinner animation="border" role="status" />;
  const key = a.apiKey?.id ?? null;

  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title" className="mb-3">
        {de.account.title}
      </h1>
      <Profile user={a.user as never} />
      <ApiKeyPanel apiKey={key} loading={loading} onGenerate={generate} />
      <ShareXPanel apiKey={key} onWizard={wizardEnabled ? () => setWizard(true) : undefined} />
      {wizardEnabled && (
        <SetupWizard
          show={showWizard}
          apiKey={key}
          onClose={() => setWizard(false)}
          onGenerate={() => {
            // No key yet, so nothing is lost: the wizard generates it directly.
            generate()
              .then(() => toast.success(de.account.apiKeyGenerated))
              .catch(() => toast.error(de.account.apiKeyGenerateFailed));
          }}
        />
      )}
    </section>
  );
}
