import { Link } from 'wouter';
import { useT } from '../i18n/context';
import { rememberLoginReturn } from '../lib/login';

/** 'Anmelden' as a button-styled link to /login; after the login the user comes back here. */
export function LoginLink({ className }: { className: string }) {
  const { msg } = useT();
  return (
    <Link
      href="/login"
      className={className}
      onClick={() => rememberLoginReturn(window.location.pathname + window.location.search)}
    >
      {msg.nav.login}
    </Link>
  );
}
