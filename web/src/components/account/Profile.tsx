import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import type { DeepReadonly, User } from '../../api/client';
import { formatDateTime } from '../../lib/expiry';
import { cutName } from '../../lib/table';
import { Avatar } from '../Avatar';
import { useT } from '../../i18n/context';

/** The account's profile: avatar, name (cut at 20), e-mail and member since. */
export function Profile({ user }: { user: DeepReadonly<User> }) {
  const { msg } = useT();
  return (
    <Card className="mb-4" data-testid="account-profile">
      <Card.Body className="d-flex flex-wrap gap-4 align-items-center">
        <div role="img" aria-label={msg.account.avatar} className="text-body-secondary">
          <Avatar url={user.imageUrl} size={96} />
        </div>
        <dl className="mb-0 row flex-grow-1">
          <dt className="col-sm-4">{msg.account.username}</dt>
          <dd className="col-sm-8" data-testid="account-username" title={user.username}>
            {cutName(user.username)}{' '}
            {!user.activated && (
              <Badge bg="warning" text="dark" data-testid="not-activated">
                {msg.account.notActivated}
              </Badge>
            )}
          </dd>
          <dt className="col-sm-4">{msg.account.email}</dt>
          <dd className="col-sm-8" data-testid="account-email">
            {user.email ?? <span className="text-body-secondary">{msg.account.noEmail}</span>}
          </dd>
          <dt className="col-sm-4">{msg.account.memberSince}</dt>
          <dd className="col-sm-8 mb-0" data-testid="account-member-since">
            {formatDateTime(user.createdDate)}
          </dd>
        </dl>
      </Card.Body>
    </Card>
  );
}
