import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useLocation } from 'wouter';
import { api } from '../api/client';
import { de, t } from '../i18n/de';
import { OFFLINE_SECONDS, RESTORE_KEY } from '../lib/offline';

export default function OfflinePage() {
  const [, navigate] = useLocation();
  const [seconds, setSeconds] = useState(OFFLINE_SECONDS);
  const [checking, setChecking] = useState(false);

  async function check() {
    setChecking(true);
    try {
      const { response } = await api.GET('/api/logged-in');
      if (response.ok) {
        const to = sessionStorage.getItem(RESTORE_KEY) ?? '/';
        sessionStorage.removeItem(RESTORE_KEY);
        navigate(to.startsWith('/') && !to.startsWith('//') ? to : '/', { replace: true });
        return;
      }
    } catch {
      // still offline
    } finally {
      setChecking(false);
    }
    setSeconds(OFFLINE_SECONDS);
  }

  useEffect(() => {
    if (checking) return;
    if (seconds <= 0) {
      void check();
      return;
    }
    const id = setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => clearTimeout(id);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [seconds, checking]);

  return (
    <section className="mx-auto text-center" style={{ maxWidth: 560 }}>
      <h1>{de.offline.title}</h1>
      <p>{de.offline.text}</p>
      <p aria-live="polite" data-testid="offline-countdown">
        {checking ? de.offline.checking : t(de.offline.countdown, { seconds })}
      </p>
      <Button variant="outline-primary" disabled={checking} onClick={() => setSeconds(0)}>
        {de.offline.retry}
      </Button>
    </section>
  );
}
