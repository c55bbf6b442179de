import Badge from 'react-bootstrap/Badge';
import type { TeamRole } from '@shared/teams';
import { useT } from '../../i18n/context';

const VARIANT: Record<TeamRole, string> = {
  owner: 'primary',
  editor: 'info',
  viewer: 'secondary',
};

/** The caller's (or a member's) role in a team, as a small badge. */
export function RoleBadge({ role }: { role: TeamRole }) {
  const { msg } = useT();
  return (
    <Badge bg={VARIANT[role]} pill data-testid="role-badge" data-role={role}>
      {msg.roles[role]}
    </Badge>
  );
}
