import { useCallback, useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useLocation } from 'wouter';
import { api } from '../api/client';
import { OFFLINE_SECONDS, RESTORE_KEY } from '../lib/offline';
import { useT } from '../i18n/context';

export default function OfflinePage() {
  const { msg, t } = useT();
  const [, navigate] = useLocation();
  const [deadline, setDeadline] = useState(() => Date.now() + OFFLINE_SECONDS * 1000);
  const busy = useRef(false);
  const [now, setNow] = useState(() => Date.now());
  const [checking, setChecking] = useState(false);

  const check = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
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
      busy.current = false;
      setChecking(false);
    }
    // Failure: restart the countdown.
    const n = Date.now();
    setDeadline(n + OFFLINE_SECONDS * 1000);
    setNow(n);
  }, [navigate]);

  // One tick per second against a deadline (robust against throttled or paused timers).
  useEffect(() => {
    const id = setInterval(() => {
      const n = Date.now();
      setNow(n);
      if (n >= deadline) void check();
    }, 1000);
    return () => clearInterval(id);
  }, [check, deadline]);

  const seconds = Math.max(0, Math.ceil((deadline - now) / 1000));
  return (
    <section className="mx-auto text-center" style={{ maxWidth: 560 }}>
      <h1>{msg.offline.title}</h1>
      <p>{msg.offline.text}</p>
      <p aria-live="polite" data-testid="offline-countdown">
        {checking ? msg.offline.checking : t(msg.offline.countdown, { seconds })}
      </p>
      <Button variant="outline-primary" disabled={checking} onClick={() => void check()}>
        {msg.offline.retry}
      </Button>
    </section>
  );
}
