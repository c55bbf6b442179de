import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import { useSnapshot } from 'valtio';
import { roleMayWrite } from '@shared/teams';
import { useDomains } from '../../api/queries/domains';
import { errorText } from '../../lib/errors';
import { space } from '../../state/space';
import { teamOf } from './domains/DomainItem';
import { useT } from '../../i18n/context';
import { DomainItem } from './domains/DomainItem';
import { AddDomain } from './domains/AddDomain';

export interface DomainsPanelProps {
  /** The caller's id: their own domains may be changed (admins: every domain). */
  userId: string;
  admin: boolean;
}

/**
 * The account's domains (CONTRACT "Own domains"): the shared ones and the own (admins: all), each
 * with its state, the DNS records that verify it, 'Jetzt prüfen', its redirects and delete; and
 * adding one (admins: also a shared one, verified at once).
 */
export function DomainsPanel({ userId, admin }: DomainsPanelProps) {
  const { msg } = useT();
  const sp = useSnapshot(space);
  const domains = useDomains();
  const list = domains.data ?? [];
  return (
    <Card className="mb-4" data-testid="domains-panel">
      <Card.Body>
        <h2 className="h4" id="domains-title">
          {msg.domains.title}
        </h2>
        <p className="text-body-secondary">{msg.domains.text}</p>
        {domains.isPending ? (
          <Spinner animation="border" size="sm" role="status" />
        ) : domains.isError ? (
          <p className="text-danger" role="alert">
            {errorText(domains.error, msg.domains.loadError)}
          </p>
        ) : list.length === 0 ? (
          <p data-testid="domains-empty">{msg.domains.empty}</p>
        ) : (
          <ul className="list-unstyled mb-0" aria-labelledby="domains-title">
            {list.map((d) => (
              <DomainItem
                key={d.id}
                domain={d}
                canManage={
                  admin ||
                  d.owner?.id === userId ||
                  roleMayWrite(sp.teams?.find((x) => x.id === teamOf(d)?.id)?.role)
                }
                showOwner={admin}
              />
            ))}
          </ul>
        )}
        <AddDomain admin={admin} />
      </Card.Body>
    </Card>
  );
}
