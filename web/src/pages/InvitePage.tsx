import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { Link, useLocation, useParams } from 'wouter';
import { ApiError } from '../api/errors';
import { reloadTeams, teamsApi } from '../api/teams';
import { useT } from '../i18n/context';
import { errorText } from '../lib/errors';
import { chooseSpace } from '../state/space';
import { toast } from '../state/toasts';

/**
 * /invite/{token}: 'Team beitreten'. Behind the login (App.tsx: RequireLogin remembers this page
 * for after it); joining opens the team's page, in the team's space.
 */
export default function InvitePage() {
  const { msg, t } = useT();
  const { token = '' } = useParams<{ token: string }>();
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState(false);
  const [invalid, setInvalid] = useState<string | null>(null);

  async function join() {
    setBusy(true);
    try {
      const team = await teamsApi.accept(token);
      toast.success(t(msg.invite.joined, { name: team.name }));
      await reloadTeams().catch(() => undefined);
      chooseSpace(team.id);
      navigate(`/teams/${encodeURIComponent(team.id)}`, { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.errorKey === 'invite_invalid') {
        setInvalid(errorText(err));
      } else {
        toast.error(errorText(err, msg.invite.failed));
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="invite-title" className="mx-auto" style={{ maxWidth: '32rem' }}>
      <Card>
        <Card.Body>
          <h1 id="invite-title" className="h3">
            {msg.invite.title}
          </h1>
          {invalid ? (
            <Alert variant="warning" data-testid="invite-invalid">
              <Alert.Heading as="h2" className="h6">
                {msg.invite.invalidTitle}
              </Alert.Heading>
              <p className="mb-0">{invalid}</p>
            </Alert>
          ) : (
            <p>{msg.invite.text}</p>
          )}
          <div className="d-flex flex-wrap gap-2">
            {!invalid && (
              <Button onClick={() => void join()} disabled={busy} data-testid="invite-join">
                {msg.invite.join}
              </Button>
            )}
            <Link href="/teams" className="btn btn-outline-secondary">
              {msg.invite.toTeams}
            </Link>
          </div>
        </Card.Body>
      </Card>
    </section>
  );
}
