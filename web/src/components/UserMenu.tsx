import { useWebhooksT } from '../i18n/webhooks-text';
import Dropdown from 'react-bootstrap/Dropdown';
import { useLocation } from 'wouter';
import { Avatar } from './Avatar';
import { cutUsername } from '../lib/nav';
import { isAdmin, logout } from '../state/auth';

/**
 * The logged-in user's menu in the top bar (account, admin, logout). A chunk of its own, loaded once
 * someone is logged in: its dropdown brings Popper along, which an anonymous first visit never needs
 * (the first visit's weight, issue 40).
 */
/** The fields the menu shows (a read-only snapshot of the session's user fits). */
interface MenuUser {
  readonly username: string;
  readonly imageUrl: string | null;
  readonly authorities: readonly string[];
}

export default function UserMenu({ user }: { user: MenuUser }) {
  const { msg, wm } = useWebhooksT();
  const [, navigate] = useLocation();
  return (
    <Dropdown align="end">
      <Dropdown.Toggle
        variant="outline-primary"
        id="user-menu"
        aria-label={`${msg.nav.userMenu}: ${cutUsername(user.username)}`}
      >
        <Avatar url={user.imageUrl} size={20} /> <span>{cutUsername(user.username)}</span>
      </Dropdown.Toggle>
      <Dropdown.Menu>
        <Dropdown.Item onClick={() => navigate('/account')}>{msg.nav.account}</Dropdown.Item>
        <Dropdown.Item onClick={() => navigate('/teams')}>{msg.space.navTeams}</Dropdown.Item>
        <Dropdown.Item onClick={() => navigate('/account/keys')}>
          {msg.space.navApiKeys}
        </Dropdown.Item>
        <Dropdown.Item onClick={() => navigate('/account/webhooks')}>
          {wm.webhooks.nav}
        </Dropdown.Item>
        {isAdmin(user) && (
          <Dropdown.Item onClick={() => navigate('/admin')}>{msg.nav.admin}</Dropdown.Item>
        )}
        <Dropdown.Divider />
        <Dropdown.Item
          onClick={() => {
            void logout().then(() => navigate('/'));
          }}
        >
          {msg.nav.logout}
        </Dropdown.Item>
      </Dropdown.Menu>
    </Dropdown>
  );
}
