import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Offcanvas from 'react-bootstrap/Offcanvas';
import Spinner from 'react-bootstrap/Spinner';
import { useSnapshot } from 'valtio';
import { Link, useLocation, useSearch } from 'wouter';
import {
  AdminSidebar,
  MANAGEMENT_SECTIONS,
  type ManagementSection,
} from '../components/admin/AdminSidebar';
import { useAdminEntities } from '../api/queries/admin';
import { EntityDialog } from '../components/admin/EntityDialog';
import { EntitySection } from '../components/admin/EntitySection';
import { HealthSection } from '../components/admin/management/HealthSection';
import { InfoSection } from '../components/admin/management/InfoSection';
import { LoggersSection } from '../components/admin/management/LoggersSection';
import { LogsSection } from '../components/admin/management/LogsSection';
import { errorText } from '../lib/errors';
import { admin, toggleSidebar } from '../state/admin';
import { auth, isAdmin } from '../state/auth';
import { useT } from '../i18n/context';

const MANAGEMENT: Record<ManagementSection, () => React.JSX.Element> = {
  health: HealthSection,
  info: InfoSection,
  loggers: LoggersSection,
  logs: LogsSection,
};

/**
 * /admin (the route guard lets logged-in users in): for admins the admin area; anyone else is told
 * why there is nothing for them here.
 */
export default function AdminPage() {
  const a = useSnapshot(auth);
  return isAdmin(a.user) ? <AdminArea /> : <NotAdmin />;
}

/** A logged-in user without the admin role on /admin: says so and leads back to the start page. */
export function NotAdmin() {
  const { msg } = useT();
  return (
    <section aria-labelledby="not-admin-title" className="py-3" data-testid="not-admin">
      <h1 id="not-admin-title" className="h3">
        {msg.admin.notAdminTitle}
      </h1>
      <p>{msg.admin.notAdmin}</p>
      <Link href="/" className="btn btn-primary">
        {msg.admin.notAdminBack}
      </Link>
    </section>
  );
}

/** The admin area: sidebar with the entities and the management sections. */
function AdminArea() {
  const { msg, t } = useT();
  const a = useSnapshot(admin);
  const search = useSearch();
  const [, navigate] = useLocation();
  const [mobileOpen, setMobileOpen] = useState(false);
  const query = useAdminEntities();
  const entities = query.data ?? [];
  const loaded = !query.isPending;
  const requested = new URLSearchParams(search).get('section');
  const known = [...entities.map((e) => e.name as string), ...MANAGEMENT_SECTIONS];
  // Until the entities are known, an entity section (or the default one) waits with a spinner.
  const section =
    requested && known.includes(requested)
      ? requested
      : loaded
        ? (entities[0]?.name ?? 'health')
        : (requested ?? '');
  const entity = entities.find((e) => e.name === section);
  const Management = MANAGEMENT[section as ManagementSection] as
    (() => React.JSX.Element) | undefined;

  function select(s: string) {
    setMobileOpen(false);
    navigate(`/admin?section=${encodeURIComponent(s)}`);
  }

  return (
    <div className="admin-page">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h1 className="h3 mb-0 me-auto">{msg.admin.title}</h1>
        <Button
          variant="outline-secondary"
          size="sm"
          className="d-lg-none"
          onClick={() => setMobileOpen(true)}
          aria-controls="admin-sidebar"
        >
          ☰ {msg.admin.openSidebar}
        </Button>
        <Button
          variant="outline-secondary"
          size="sm"
          className="d-none d-lg-inline-block"
          onClick={toggleSidebar}
          aria-controls="admin-sidebar"
          aria-expanded={a.showSidebar}
        >
          {a.showSidebar ? msg.admin.hideSidebar : msg.admin.showSidebar}
        </Button>
      </div>
      <div className="d-lg-flex gap-4 align-items-start">
        <Offcanvas
          id="admin-sidebar"
          responsive="lg"
          show={mobileOpen}
          onHide={() => setMobileOpen(false)}
          placement="start"
          className={`admin-sidebar-wrap flex-shrink-0 ${a.showSidebar ? '' : 'd-lg-none'}`}
          style={{ width: 240 }}
          aria-labelledby="admin-sidebar-title"
        >
          <Offcanvas.Header closeButton closeLabel={msg.admin.close}>
            <Offcanvas.Title id="admin-sidebar-title">{msg.admin.title}</Offcanvas.Title>
          </Offcanvas.Header>
          <Offcanvas.Body>
            <AdminSidebar entities={entities} current={section} onSelect={select} />
          </Offcanvas.Body>
        </Offcanvas>
        <div className="flex-grow-1" style={{ minWidth: 0 }}>
          {query.isError && (
            <Alert variant="danger">
              {t(msg.admin.loadError, {
                detail: errorText(query.error, undefined, msg.admin.errors),
              })}
            </Alert>
          )}
          {entity ? (
            <EntitySection key={entity.name} entity={entity} />
          ) : Management ? (
            <Management key={section} />
          ) : !loaded ? (
            <Spinner animation="border" role="status" />
          ) : null}
        </div>
      </div>
      <EntityDialog entities={entities} />
    </div>
  );
}
