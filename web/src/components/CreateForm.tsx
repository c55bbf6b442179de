import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import { api, unwrap } from '../api/client';
import { de } from '../i18n/de';
import { errorText } from '../lib/errors';
import { createBody, emptyValues } from '../lib/short-form';
import { auth } from '../state/auth';
import { toast } from '../state/toasts';
import { ShortFields, useShortForm } from './ShortFields';

/**
 * The start page's 'Link kürzen': the short's fields (ShortFields, mode create) and the create
 * call. It calls `api` directly: react-query is not loaded on the start page (the budget).
 */
export function CreateForm() {
  const a = useSnapshot(auth);
  const loggedIn = a.status === 'authenticated';
  const [, navigate] = useLocation();
  const form = useShortForm(emptyValues);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    // An expiry that is not understood is sent as none (SPEC: 'unparsable becomes null').
    const body = createBody(form.values, form.expireAt, loggedIn);
    try {
      const created = await unwrap(api.POST('/api/code', { body }));
      // The info page's banner says it was created (once: no toast besides).
      navigate(`/s/${encodeURIComponent(created.code)}/info?show_created=true`);
    } catch (err) {
      toast.error(errorText(err, de.create.errorOther));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card className="mb-4 shadow-sm">
      <Card.Body>
        <h2 className="h4">{de.create.title}</h2>
        <Form onSubmit={(e) => void submit(e)}>
          <ShortFields
            mode="create"
            loggedIn={loggedIn}
            values={form.values}
            onChange={form.change}
            expireAt={form.expireAt}
          />
          <Button type="submit" disabled={busy}>
            {de.create.submit}
          </Button>
        </Form>
      </Card.Body>
    </Card>
  );
}
