import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useSnapshot } from 'valtio';
import { Link, useLocation } from 'wouter';
import { CLIENT_ROUTES } from '@shared/client-routes';
import { Avatar } from './Avatar';
import { LoginLink } from './LoginLink';
import { FLAGS } from '../lib/flag-rule';
import { isLanguage } from '../lib/language-rule';
import { cutUsername, NAV_ITEMS, visibleNavItems } from '../lib/nav';
import { runtimeConfig } from '../runtime-config';
import { auth, isAdmin } from '../state/auth';
import { consentActions, cookies } from '../state/cookies';
import { flags } from '../state/flags';
import { chooseLanguage, language } from '../state/language';
import { theme, toggleTheme } from '../state/theme';
import { useT } from '../i18n/context';

// Only for someone logged in: its dropdown (and Popper) stays out of an anonymous first visit.
const UserMenu = lazy(() => import('./UserMenu'));
// The space switcher (own space or a team): logged in only, a chunk of its own as well.
const SpaceSwitcher = lazy(() => import('./teams/SpaceSwitcher'));

/** Below 960 px the top bar's links fold into a menu; at 960 px and wider an open menu closes. */
export const MOBILE_BREAKPOINT = 960;

function TopBar() {
  const { msg } = useT();
  const a = useSnapshot(auth);
  const f = useSnapshot(flags);
  const [location] = useLocation();
  // The mobile menu belongs to the page it was opened on: any navigation closes it (also a way
  // back to that page later).
  const [menu, setMenu] = useState({ open: false, on: location });
  if (menu.on !== location) setMenu({ open: false, on: location });
  const open = menu.open && menu.on === location;
  useEffect(() => {
    const onResize = () => {
      if (window.innerWidth >= MOBILE_BREAKPOINT) setMenu((m) => ({ ...m, open: false }));
    };
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  const items = visibleNavItems(NAV_ITEMS, {
    authenticated: a.status === 'authenticated',
    admin: isAdmin(a.user),
    flags: f.enabled,
  });
  const isActive = (to: string) =>
    to === '/' ? location === '/' : location === to || location.startsWith(`${to}/`);
  return (
    <header className="topbar border-bottom bg-body-tertiary">
      <nav
        className="container d-flex flex-wrap align-items-center py-2 gap-2"
        aria-label={msg.nav.main}
      >
        <Link href="/" className="navbar-brand fw-bold me-3 text-body text-decoration-none">
          {msg.app.title}
        </Link>
        <button
          type="button"
          className="btn btn-outline-secondary topbar-toggle ms-auto"
          aria-label={msg.nav.menu}
          aria-expanded={open}
          aria-controls="topbar-links"
          onClick={() => setMenu({ open: !open, on: location })}
        >
          ☰
        </button>
        <div id="topbar-links" className={`topbar-links ${open ? 'open' : ''}`}>
          <ul className="nav">
            {items.map((i) => (
              <li className="nav-item" key={i.to}>
                <Link
                  href={i.to}
                  className={`nav-link ${isActive(i.to) ? 'active fw-semibold' : ''}`}
                  aria-current={isActive(i.to) ? 'page' : undefined}
                >
                  {i.label}
                </Link>
              </li>
            ))}
          </ul>
          <div className="topbar-user d-flex flex-wrap align-items-center gap-2">
            {a.status === 'authenticated' && a.user && (
              <Suspense fallback={null}>
                <SpaceSwitcher />
              </Suspense>
            )}
            {a.status === 'authenticated' && a.user ? (
              <Suspense
                fallback={
                  <span className="btn btn-outline-primary disabled" aria-hidden="true">
                    <Avatar url={a.user.imageUrl} size={20} />{' '}
                    <span>{cutUsername(a.user.username)}</span>
                  </span>
                }
              >
                <UserMenu user={a.user} />
              </Suspense>
            ) : a.status === 'unauthenticated' && location !== CLIENT_ROUTES.login ? (
              // Not on the login page itself: there it would only lead to where one is.
              <LoginLink className="btn btn-primary" />
            ) : null}
          </div>
        </div>
      </nav>
    </header>
  );
}

function FooterLink({ href, children }: { href: string | null; children: ReactNode }) {
  if (!href) return null;
  return (
    <li className="list-inline-item">
      <a href={href} target="_blank" rel="noopener noreferrer" className="link-secondary">
        {children}
      </a>
    </li>
  );
}

function Footer() {
  const { msg, t } = useT();
  const c = useSnapshot(cookies);
  const th = useSnapshot(theme);
  const f = useSnapshot(flags);
  const lang = useSnapshot(language);
  // The theme is a preference the visitor sets and needs no consent; the experiments need the
  // Unleash consent only where an external Unleash is used (the embedded flags are this server's).
  const unleash = !c.offered.includes('unleash') || c.consent.services.unleash;
  const fl = runtimeConfig.footer;
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer border-top mt-5 py-4 bg-body-tertiary">
      <div className="container d-flex flex-column gap-3">
        <div className="d-flex flex-wrap align-items-center gap-2">
          <Badge bg="secondary" pill data-testid="version">
            {t(msg.footer.version, { version: runtimeConfig.version })}
          </Badge>
          <Button variant="link" size="sm" onClick={consentActions.open}>
            {msg.footer.cookies}
          </Button>
          <Button variant="outline-secondary" size="sm" onClick={toggleTheme}>
            {msg.footer.theme}: {th.darkMode ? msg.footer.themeDark : msg.footer.themeLight}
          </Button>
          {f.enabled[FLAGS.experimentSwitch] && (
            <>
              <Button
                variant="outline-secondary"
                size="sm"
                disabled={!unleash}
                onClick={() => {
                  flags.showExperimentDialog = true;
                }}
                aria-describedby={unleash ? undefined : 'experiments-hint'}
              >
                {msg.footer.experiments}
              </Button>
              {!unleash && (
                <small id="experiments-hint" className="text-body-secondary">
                  {msg.footer.experimentsNeedCookie}
                </small>
              )}
            </>
          )}
          {f.enabled[FLAGS.languageSwitch] && (
            <Form.Select
              size="sm"
              aria-label={msg.footer.language}
              value={lang.current}
              onChange={(e) => {
                if (isLanguage(e.target.value)) void chooseLanguage(e.target.value);
              }}
              style={{ width: 'auto' }}
            >
              <option value="de" lang="de">
                🇩🇪 {msg.footer.german}
              </option>
              <option value="en" lang="en">
                🇬🇧 {msg.footer.english}
              </option>
            </Form.Select>
          )}
        </div>
        {fl.services.length > 0 && (
          <div>
            <span className="me-2">{msg.footer.services}:</span>
            <ul className="list-inline d-inline mb-0">
              {fl.services.map((s) => (
                <FooterLink key={s.url} href={s.url}>
                  {s.name}
                </FooterLink>
              ))}
            </ul>
          </div>
        )}
        <ul className="list-inline mb-0">
          <FooterLink href={fl.imprintUrl}>{msg.footer.imprint}</FooterLink>
          <FooterLink href={fl.privacyUrl}>{msg.footer.privacy}</FooterLink>
          <FooterLink href={fl.termsUrl}>{msg.footer.terms}</FooterLink>
          <FooterLink href={fl.contactUrl}>{msg.footer.contact}</FooterLink>
          <FooterLink href={fl.chatUrl}>{msg.footer.chat}</FooterLink>
        </ul>
        <small className="text-body-secondary">
          {t(msg.footer.copyright, { from: 2021, to: year })}
        </small>
      </div>
    </footer>
  );
}

export function Shell({ children }: { children: ReactNode }) {
  return (
    <div className="d-flex flex-column min-vh-100">
      <TopBar />
      <main className="container flex-grow-1 py-4" id="main">
        {children}
      </main>
      <Footer />
    </div>
  );
}
