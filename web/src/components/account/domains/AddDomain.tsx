import { useState, type FormEvent } from 'react';
import { useSnapshot } from 'valtio';
import { roleMayWrite } from '@shared/teams';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { useCreateDomain } from '../../../api/queries/domains';
import { errorText } from '../../../lib/errors';
import { space } from '../../../state/space';
import { toast } from '../../../state/toasts';
import { useT } from '../../../i18n/context';

/** Adds a domain: the user's own, pending until its TXT record is found; admins also shared ones. */
export function AddDomain({ admin }: { admin: boolean }) {
  const { msg, t } = useT();
  const create = useCreateDomain();
  const [host, setHost] = useState('');
  const [shared, setShared] = useState(false);
  // A domain may belong to a team the user may write to (CONTRACT "Teams").
  const [team, setTeam] = useState('');
  const teams = (useSnapshot(space).teams ?? []).filter((x) => roleMayWrite(x.role));

  async function add(e: FormEvent) {
    e.preventDefault();
    try {
      const added = await create.mutateAsync({
        body: {
          host: host.trim(),
          ...(admin && shared ? { shared: true } : {}),
          ...(team && !shared ? { team } : {}),
        },
      });
      toast.success(t(msg.domains.added, { host: added.host }));
      setHost('');
      setShared(false);
      setTeam('');
    } catch (err) {
      toast.error(errorText(err, msg.domains.addFailed));
    }
  }

  return (
    <Form onSubmit={(e) => void add(e)} className="mt-3" data-testid="domain-add">
      <Form.Group controlId="domain-add-host" className="mb-2">
        <Form.Label>{msg.domains.host}</Form.Label>
        <InputGroup>
          <Form.Control
            value={host}
            required
            placeholder={msg.domains.hostPlaceholder}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setHost(e.target.value)}
          />
          <Button type="submit" disabled={create.isPending}>
            {msg.domains.add}
          </Button>
        </InputGroup>
      </Form.Group>
      {teams.length > 0 && !shared && (
        <Form.Group controlId="domain-add-team" className="mb-2">
          <Form.Label className="mb-1">{msg.space.domainTeam}</Form.Label>
          <Form.Select value={team} onChange={(e) => setTeam(e.target.value)}>
            <option value="">{msg.space.personal}</option>
            {teams.map((x) => (
              <option key={x.id} value={x.id}>
                {x.name}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      )}
      {admin && (
        <Form.Check
          id="domain-add-shared"
          label={msg.domains.sharedCheck}
          checked={shared}
          onChange={(e) => setShared(e.target.checked)}
        />
      )}
    </Form>
  );
}
