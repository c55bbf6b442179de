import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { useParams, useSearch } from 'wouter';
import { useT } from '../i18n/context';

export function followUrl(code: string, query: Record<string, string> = {}): string {
  const q = new URLSearchParams(query).toString();
  return `/s/${encodeURIComponent(code)}${q ? `?${q}` : ''}`;
}

/**
 * Where the password page posts: the follow, keeping `accept_danger=true` when the visitor came
 * through a dangerous short's warning (else the password would lead back to the warning).
 */
export function passwordAction(code: string, search: URLSearchParams): string {
  return followUrl(code, search.get('accept_danger') === 'true' ? { accept_danger: 'true' } : {});
}

/**
 * The password prompt. The form is posted by the browser itself to `POST /s/{code}`: the password
 * travels in the body, never in a URL (history, proxy logs), and the server's 303 leads on to the
 * target or back here (`?wrong=true`, `?locked=true`). The field has the focus from the start.
 */
export default function PasswordPage() {
  const { msg } = useT();
  const { code = '' } = useParams<{ code: string }>();
  const search = new URLSearchParams(useSearch());
  const [show, setShow] = useState(false);
  return (
    <section className="mx-auto" style={{ maxWidth: 480 }}>
      <h1>{msg.password.title}</h1>
      <p>{msg.password.text}</p>
      {search.get('wrong') === 'true' && <Alert variant="danger">{msg.password.wrong}</Alert>}
      {search.get('locked') === 'true' && <Alert variant="danger">{msg.password.locked}</Alert>}
      <Form method="post" action={passwordAction(code, search)}>
        <Form.Label htmlFor="short-password">{msg.password.label}</Form.Label>
        <InputGroup className="mb-3">
          <Form.Control
            id="short-password"
            name="password"
            type={show ? 'text' : 'password'}
            autoComplete="off"
            // The one thing to do on this page.
            autoFocus
            required
          />
          <Button variant="outline-secondary" onClick={() => setShow(!show)} aria-pressed={show}>
            {show ? msg.password.hide : msg.password.show}
          </Button>
        </InputGroup>
        <Button type="submit">{msg.password.open}</Button>
      </Form>
    </section>
  );
}
