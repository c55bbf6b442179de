import { useEffect } from 'react';
import Dropdown from 'react-bootstrap/Dropdown';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import { reloadTeams } from '../../api/teams';
import { useT } from '../../i18n/context';
import { chooseSpace, currentTeam, space } from '../../state/space';
import { RoleBadge } from './RoleBadge';

/**
 * The space switcher of the top bar (logged in): 'Persönlich' or one of the caller's teams, with
 * the caller's role. The choice is kept (state/space.ts, localStorage); on the own-shorts list it
 * is also the list's `?team=`, so the list stays linkable. A chunk of its own, like the user menu.
 */
export default function SpaceSwitcher() {
  const { msg, t } = useT();
  const s = useSnapshot(space);
  const [location, navigate] = useLocation();
  useEffect(() => {
    reloadTeams().catch(() => undefined);
  }, []);
  const team = currentTeam(s);
  const name = team ? team.name : msg.space.personal;
  const choose = (id: string | null) => {
    chooseSpace(id);
    if (location === '/shorts') navigate(id ? `/shorts?team=${encodeURIComponent(id)}` : '/shorts');
  };
  return (
    <Dropdown data-testid="space-switcher">
      <Dropdown.Toggle
        variant="outline-secondary"
        id="space-menu"
        className="text-truncate"
        style={{ maxWidth: '16rem' }}
      >
        {/* The accessible name holds the visible text (name and role) after what the button does. */}
        <span className="visually-hidden">{t(msg.space.choose, { name: '' }).trim()}</span>{' '}
        <span data-testid="space-current">{name}</span>
        {team && (
          <>
            {' '}
            <RoleBadge role={team.role} />
          </>
        )}
      </Dropdown.Toggle>
      <Dropdown.Menu>
        <Dropdown.Header>{msg.space.label}</Dropdown.Header>
        <Dropdown.Item
          active={!team}
          onClick={() => choose(null)}
          data-testid="space-option"
          data-space=""
        >
          {msg.space.personal}
        </Dropdown.Item>
        {(s.teams ?? []).map((x) => (
          <Dropdown.Item
            key={x.id}
            active={team?.id === x.id}
            onClick={() => choose(x.id)}
            data-testid="space-option"
            data-space={x.id}
            className="d-flex align-items-center justify-content-between gap-2"
          >
            <span className="text-truncate">{x.name}</span> <RoleBadge role={x.role} />
          </Dropdown.Item>
        ))}
        <Dropdown.Divider />
        <Dropdown.Item onClick={() => navigate('/teams')}>{msg.space.manage}</Dropdown.Item>
      </Dropdown.Menu>
    </Dropdown>
  );
}
