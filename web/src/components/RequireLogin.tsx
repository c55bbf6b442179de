import { useEffect, type ReactNode } from 'react';
import Spinner from 'react-bootstrap/Spinner';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import { rememberLoginReturn } from '../lib/login';
import { auth, isAdmin } from '../state/auth';
import { toast } from '../state/toasts';
import { useT } from '../i18n/context';

/** Login-required pages send anonymous visitors to /login with the warning toast. */
export function RequireLogin({
  admin = false,
  children,
}: {
  admin?: boolean;
  children: ReactNode;
}) {
  const { msg } = useT();
  const a = useSnapshot(auth);
  const [, navigate] = useLocation();
  const allowed = a.status === 'authenticated' && (!admin || isAdmin(a.user));
  useEffect(() => {
    if (a.status === 'unauthenticated') {
      toast.warning(msg.auth.mustBeLoggedIn);
      rememberLoginReturn(window.location.pathname + window.location.search);
      navigate('/login', { replace: true });
    } else if (a.status === 'authenticated' && !allowed) {
      navigate('/', { replace: true });
    }
  }, [a.status, allowed, navigate, msg.auth.mustBeLoggedIn]);
  if (!allowed) return <Spinner animation="border" role="status" />;
  return <>{children}</>;
}
