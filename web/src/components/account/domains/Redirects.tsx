import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useUpdateDomain } from '../../../api/queries/domains';
import { type Domain } from '../../../lib/domains';
import { errorText } from '../../../lib/errors';
import { toast } from '../../../state/toasts';
import { useT } from '../../../i18n/context';
import { RedirectField } from './RedirectField';

/** The home and not-found redirects (empty: this service's pages). */
export function Redirects({ domain: d }: { domain: Domain }) {
  const { msg, t } = useT();
  const update = useUpdateDomain();
  const [home, setHome] = useState(d.homeRedirect ?? '');
  const [notFound, setNotFound] = useState(d.notFoundRedirect ?? '');

  async function save(e: FormEvent) {
    e.preventDefault();
    const body = {
      homeRedirect: home.trim() === '' ? null : home.trim(),
      notFoundRedirect: notFound.trim() === '' ? null : notFound.trim(),
    };
    try {
      await update.mutateAsync({ params: { path: { id: d.id } }, body });
      toast.success(msg.domains.saved);
    } catch (err) {
      toast.error(errorText(err, msg.domains.saveFailed));
    }
  }

  return (
    <Form onSubmit={(e) => void save(e)} className="mt-2">
      <RedirectField
        id={`domain-home-${d.id}`}
        label={msg.domains.homeRedirect}
        help={t(msg.domains.homeRedirectHelp, { host: d.host })}
        value={home}
        onChange={setHome}
      />
      <RedirectField
        id={`domain-notfound-${d.id}`}
        label={msg.domains.notFoundRedirect}
        help={msg.domains.notFoundRedirectHelp}
        value={notFound}
        onChange={setNotFound}
      />
      <Button type="submit" size="sm" variant="outline-secondary" disabled={update.isPending}>
        {msg.domains.save}
      </Button>
    </Form>
  );
}
