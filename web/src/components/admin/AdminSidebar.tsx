import Nav from 'react-bootstrap/Nav';
import { useT } from '../../i18n/context';
import type { Messages } from '../../i18n/text';
import type { AdminEntity } from '../../lib/admin';
import { entityLabel } from './labels';

export const MANAGEMENT_SECTIONS = ['health', 'info', 'loggers', 'logs'] as const;
export type ManagementSection = (typeof MANAGEMENT_SECTIONS)[number];

export function managementLabel(s: ManagementSection, m: Messages): string {
  return m.admin[s].title;
}

/** The admin navigation: one entry per entity, then the management sections. */
export function AdminSidebar({
  entities,
  current,
  onSelect,
}: {
  entities: readonly AdminEntity[];
  current: string;
  onSelect: (section: string) => void;
}) {
  const { msg } = useT();
  const item = (key: string, label: string) => (
    <Nav.Link
      key={key}
      href={`/admin?section=${key}`}
      active={current === key}
      aria-current={current === key ? 'page' : undefined}
      onClick={(e) => {
        e.preventDefault();
        onSelect(key);
      }}
    >
      {label}
    </Nav.Link>
  );
  return (
    <nav aria-label={msg.admin.sidebar} className="admin-sidebar">
      <h2 className="h6 text-uppercase text-body-secondary mt-1">{msg.admin.entitiesHeading}</h2>
      <Nav variant="pills" className="flex-column mb-3">
        {entities.map((e) => item(e.name, entityLabel(e.name)))}
      </Nav>
      <h2 className="h6 text-uppercase text-body-secondary">{msg.admin.managementHeading}</h2>
      <Nav variant="pills" className="flex-column">
        {MANAGEMENT_SECTIONS.map((s) => item(s, managementLabel(s, msg)))}
      </Nav>
    </nav>
  );
}
