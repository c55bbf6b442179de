import { useT } from '../i18n/context';
import { useWebhooksT } from '../i18n/webhooks-text';
import { useEffect, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import ListGroup from 'react-bootstrap/ListGroup';
import Spinner from 'react-bootstrap/Spinner';
import { useSnapshot } from 'valtio';
import { Link, useLocation, useParams } from 'wouter';
import { INVITE_DAYS, TEAM_NAME_MAX, TEAM_ROLES, type TeamRole } from '@shared/teams';
import {
  reloadTeams,
  teamsApi,
  useCreateInvite,
  useMembers,
  useRemoveMember,
  useSetRole,
  type TeamInviteDto,
  type TeamMemberDto,
} from '../api/teams';
import { Avatar } from '../components/Avatar';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { copyLabel, useCopy } from '../components/account/useCopy';
import { RoleBadge } from '../components/teams/RoleBadge';
import { WebhooksPanel } from '../components/webhooks/WebhooksPanel';
import { errorText, loadErrorText } from '../lib/errors';
import { formatDateTime } from '../lib/expiry';
import { auth } from '../state/auth';
import { chooseSpace, space, type SpaceTeam } from '../state/space';
import { toast } from '../state/toasts';

/** Loads the caller's teams once on mount; says whether that is under way or failed. */
function useTeamsLoad(): { loading: boolean; error: unknown } {
  const [state, setState] = useState<{ loading: boolean; error: unknown }>({
    loading: true,
    error: null,
  });
  useEffect(() => {
    let live = true;
    reloadTeams().then(
      () => live && setState({ loading: false, error: null }),
      (error: unknown) => live && setState({ loading: false, error }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}

/** /teams and /teams/{id}: the caller's teams, a new team; one team's members, invites and settings. */
export default function TeamsPage() {
  const { id } = useParams<{ id?: string }>();
  const load = useTeamsLoad();
  const s = useSnapshot(space);
  const { msg } = useT();
  if (s.teams === null && load.loading) return <Spinner animation="border" role="status" />;
  if (s.teams === null) {
    return (
      <Alert variant="danger" data-testid="teams-error">
        {msg.teams.loadError} {loadErrorText(load.error)}
      </Alert>
    );
  }
  if (id) {
    const team = s.teams.find((x) => x.id === id);
    if (!team) {
      return load.loading ? (
        <Spinner animation="border" role="status" />
      ) : (
        <section>
          <Alert variant="warning" data-testid="team-not-found">
            {msg.teams.notFound}
          </Alert>
          <Link href="/teams">{msg.teams.back}</Link>
        </section>
      );
    }
    return <TeamDetail key={team.id} team={team} />;
  }
  return <TeamList teams={s.teams} />;
}

function TeamList({ teams }: { teams: readonly SpaceTeam[] }) {
  const { msg, t } = useT();
  const [, navigate] = useLocation();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);

  async function create(e: FormEvent) {
    e.preventDefault();
    const wanted = name.trim();
    if (!wanted) return;
    setBusy(true);
    try {
      const team = await teamsApi.create(wanted);
      toast.success(t(msg.teams.created, { name: team.name }));
      setName('');
      await reloadTeams().catch(() => undefined);
      navigate(`/teams/${encodeURIComponent(team.id)}`);
    } catch (err) {
      toast.error(errorText(err, msg.teams.createFailed));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="teams-title">
      <h1 id="teams-title" className="mb-2">
        {msg.teams.title}
      </h1>
      <p className="text-body-secondary">{msg.teams.intro}</p>
      <Form onSubmit={(e) => void create(e)} className="mb-4" data-testid="team-create">
        <Form.Label htmlFor="team-new-name">{msg.teams.newName}</Form.Label>
        <InputGroup>
          <Form.Control
            id="team-new-name"
            value={name}
            maxLength={TEAM_NAME_MAX}
            required
            onChange={(e) => setName(e.target.value)}
          />
          <Button type="submit" disabled={busy || !name.trim()}>
            {msg.teams.create}
          </Button>
        </InputGroup>
      </Form>
      {teams.length === 0 ? (
        <div className="border rounded p-4 text-center" data-testid="teams-empty">
          <h2 className="h5">{msg.teams.empty}</h2>
          <p className="text-body-secondary mb-0">{msg.teams.emptyText}</p>
        </div>
      ) : (
        <ListGroup data-testid="teams-list">
          {teams.map((team) => (
            <ListGroup.Item
              key={team.id}
              className="d-flex flex-wrap align-items-center gap-2"
              data-testid="team-item"
              data-team={team.id}
            >
              <Link
                href={`/teams/${encodeURIComponent(team.id)}`}
                className="fw-semibold text-break me-auto"
              >
                {team.name}
              </Link>
              <RoleBadge role={team.role} />
              <Link
                href={`/teams/${encodeURIComponent(team.id)}`}
                className="btn btn-sm btn-outline-primary"
                aria-label={`${msg.teams.open}: ${team.name}`}
              >
                {msg.teams.open}
              </Link>
            </ListGroup.Item>
          ))}
        </ListGroup>
      )}
    </section>
  );
}

type Pending =
  { kind: 'delete' } | { kind: 'leave' } | { kind: 'remove'; member: TeamMemberDto } | null;

function TeamDetail({ team }: { team: SpaceTeam }) {
  const { msg, t, wm } = useWebhooksT();
  const a = useSnapshot(auth);
  const [, navigate] = useLocation();
  const me = a.user?.id;
  const owner = team.role === 'owner';
  const members = useMembers(team.id);
  const setRole = useSetRole(team.id);
  const removeMember = useRemoveMember(team.id);
  const [name, setName] = useState(team.name);
  const [pending, setPending] = useState<Pending>(null);
  const [busy, setBusy] = useState(false);

  async function rename(e: FormEvent) {
    e.preventDefault();
    const wanted = name.trim();
    if (!wanted || wanted === team.name) return;
    try {
      await teamsApi.rename(team.id, wanted);
      toast.success(t(msg.teams.renamed, { name: wanted }));
      await reloadTeams().catch(() => undefined);
    } catch (err) {
      toast.error(errorText(err, msg.teams.renameFailed));
    }
  }

  async function changeRole(m: TeamMemberDto, role: TeamRole) {
    try {
      await setRole.mutateAsync({ user: m.user.id, role });
      toast.success(t(msg.teams.roleChanged, { user: m.user.username, role: msg.roles[role] }));
      if (m.user.id === me) await reloadTeams().catch(() => undefined);
    } catch (err) {
      toast.error(errorText(err, msg.teams.roleFailed));
    }
  }

  async function confirm() {
    if (!pending) return;
    setBusy(true);
    try {
      if (pending.kind === 'delete') {
        await teamsApi.remove(team.id);
        toast.success(msg.teams.removed);
        if (space.current === team.id) chooseSpace(null);
        await reloadTeams().catch(() => undefined);
        navigate('/teams');
      } else if (pending.kind === 'leave') {
        if (!me) return;
        await teamsApi.removeMember(team.id, me);
        toast.success(msg.teams.left);
        if (space.current === team.id) chooseSpace(null);
        await reloadTeams().catch(() => undefined);
        navigate('/teams');
      } else {
        await removeMember.mutateAsync(pending.member.user.id);
        toast.success(t(msg.teams.memberRemoved, { user: pending.member.user.username }));
      }
      setPending(null);
    } catch (err) {
      const fallback =
        pending.kind === 'delete'
          ? msg.teams.removeFailed
          : pending.kind === 'leave'
            ? msg.teams.leaveFailed
            : msg.teams.memberRemoveFailed;
      toast.error(errorText(err, fallback));
      setPending(null);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="team-title" data-testid="team-page" data-team={team.id}>
      <Link href="/teams" className="d-inline-block mb-2">
        ← {msg.teams.back}
      </Link>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h1 id="team-title" className="mb-0 text-break">
          {team.name}
        </h1>
        <span className="visually-hidden">
          {t(msg.teams.yourRole, { role: msg.roles[team.role] })}
        </span>
        <RoleBadge role={team.role} />
        <Link
          href={`/shorts?team=${encodeURIComponent(team.id)}`}
          className="btn btn-outline-primary ms-auto"
          onClick={() => chooseSpace(team.id)}
          data-testid="team-shorts"
        >
          {msg.teams.shorts}
        </Link>
      </div>

      {owner && (
        <Card className="mb-3">
          <Card.Body>
            <Form onSubmit={(e) => void rename(e)} data-testid="team-rename">
              <Form.Label htmlFor="team-name">{msg.teams.name}</Form.Label>
              <InputGroup>
                <Form.Control
                  id="team-name"
                  value={name}
                  maxLength={TEAM_NAME_MAX}
                  required
                  onChange={(e) => setName(e.target.value)}
                />
                <Button
                  type="submit"
                  variant="outline-primary"
                  disabled={!name.trim() || name.trim() === team.name}
                >
                  {msg.teams.rename}
                </Button>
              </InputGroup>
            </Form>
          </Card.Body>
        </Card>
      )}

      {owner && <InviteCard teamId={team.id} />}

      <Card className="mb-3">
        <Card.Body>
          <h2 className="h5">{msg.teams.members}</h2>
          {members.isPending ? (
            <Spinner animation="border" size="sm" role="status" />
          ) : members.isError ? (
            <Alert variant="danger" className="mb-0" data-testid="members-error">
              {msg.teams.membersLoadError} {loadErrorText(members.error)}
            </Alert>
          ) : (
            <ListGroup variant="flush" data-testid="members">
              {members.data.map((m) => (
                <ListGroup.Item
                  key={m.user.id}
                  className="d-flex flex-wrap align-items-center gap-2 px-0"
                  data-testid="member"
                  data-user={m.user.username}
                >
                  <Avatar url={m.user.imageUrl} size={28} />
                  <div className="me-auto min-w-0">
                    <div className="fw-semibold text-break">
                      {m.user.username}
                      {m.user.id === me && (
                        <span className="text-body-secondary fw-normal"> ({msg.teams.you})</span>
                      )}
                    </div>
                    <small className="text-body-secondary">
                      {msg.teams.joinedAt} {formatDateTime(m.joinedAt)}
                    </small>
                  </div>
                  {owner ? (
                    <Form.Select
                      size="sm"
                      style={{ width: 'auto' }}
                      aria-label={t(msg.teams.roleOf, { user: m.user.username })}
                      value={m.role}
                      disabled={setRole.isPending}
                      onChange={(e) => void changeRole(m, e.target.value as TeamRole)}
                      data-testid="member-role"
                    >
                      {TEAM_ROLES.map((r) => (
                        <option key={r} value={r}>
                          {msg.roles[r]}
                        </option>
                      ))}
                    </Form.Select>
                  ) : (
                    <RoleBadge role={m.role} />
                  )}
                  {owner && m.user.id !== me && (
                    <Button
                      size="sm"
                      variant="outline-danger"
                      aria-label={t(msg.teams.removeMemberOf, { user: m.user.username })}
                      onClick={() => setPending({ kind: 'remove', member: m })}
                    >
                      {msg.teams.removeMember}
                    </Button>
                  )}
                </ListGroup.Item>
              ))}
            </ListGroup>
          )}
        </Card.Body>
      </Card>

      {team.role !== 'viewer' && (
        <Card className="mb-3" data-testid="team-webhooks">
          <Card.Body>
            <WebhooksPanel
              team={{ id: team.id, name: team.name }}
              heading={<h2 className="h5 mb-0">{wm.webhooks.title}</h2>}
              intro={wm.webhooks.teamIntro}
            />
          </Card.Body>
        </Card>
      )}

      <div className="d-flex flex-wrap gap-2">
        <Button variant="outline-danger" onClick={() => setPending({ kind: 'leave' })}>
          {msg.teams.leave}
        </Button>
        {owner && (
          <Button variant="danger" onClick={() => setPending({ kind: 'delete' })}>
            {msg.teams.remove}
          </Button>
        )}
      </div>

      <ConfirmDialog
        id="team-confirm"
        show={pending !== null}
        title={
          pending?.kind === 'delete'
            ? msg.teams.removeTitle
            : pending?.kind === 'leave'
              ? msg.teams.leaveTitle
              : msg.teams.removeMemberTitle
        }
        confirmLabel={
          pending?.kind === 'delete'
            ? msg.teams.removeYes
            : pending?.kind === 'leave'
              ? msg.teams.leave
              : msg.teams.removeMember
        }
        cancelLabel={msg.teams.cancel}
        busy={busy}
        onConfirm={() => void confirm()}
        onCancel={() => setPending(null)}
      >
        {pending?.kind === 'delete'
          ? t(msg.teams.removeConfirm, { name: team.name })
          : pending?.kind === 'leave'
            ? t(msg.teams.leaveConfirm, { name: team.name })
            : pending?.kind === 'remove'
              ? t(msg.teams.removeMemberConfirm, { user: pending.member.user.username })
              : null}
      </ConfirmDialog>
    </section>
  );
}

/** 'Einladungslink erstellen': a role, the link with a copy button and its expiry. */
function InviteCard({ teamId }: { teamId: string }) {
  const { msg, t } = useT();
  const [role, setRole] = useState<TeamRole>('viewer');
  const [invite, setInvite] = useState<TeamInviteDto | null>(null);
  const create = useCreateInvite(teamId);
  const [copied, copy] = useCopy();

  async function make() {
    try {
      setInvite(await create.mutateAsync(role));
      toast.success(msg.teams.inviteCreated);
    } catch (err) {
      toast.error(errorText(err, msg.teams.inviteFailed));
    }
  }

  return (
    <Card className="mb-3" data-testid="invite-card">
      <Card.Body>
        <h2 className="h5">{msg.teams.inviteTitle}</h2>
        <p className="text-body-secondary">{t(msg.teams.inviteText, { days: INVITE_DAYS })}</p>
        <div className="d-flex flex-wrap align-items-end gap-2 mb-2">
          <Form.Group controlId="invite-role">
            <Form.Label className="mb-1">{msg.teams.inviteRole}</Form.Label>
            <Form.Select value={role} onChange={(e) => setRole(e.target.value as TeamRole)}>
              {TEAM_ROLES.map((r) => (
                <option key={r} value={r}>
                  {msg.roles[r]}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          <Button onClick={() => void make()} disabled={create.isPending}>
            {msg.teams.invite}
          </Button>
        </div>
        {invite && (
          <div data-testid="invite-result">
            <Form.Label htmlFor="invite-link">{msg.teams.inviteLink}</Form.Label>
            <InputGroup>
              <Form.Control id="invite-link" readOnly value={invite.url} data-testid="invite-url" />
              <Button
                variant="outline-secondary"
                onClick={() => void copy(invite.url)}
                data-testid="invite-copy"
              >
                {copyLabel(copied, msg.teams, msg.teams.copy)}
              </Button>
            </InputGroup>
            <small className="text-body-secondary" data-testid="invite-expires">
              {t(msg.teams.inviteExpires, { date: formatDateTime(invite.expiresAt) })}
            </small>
          </div>
        )}
      </Card.Body>
    </Card>
  );
}
