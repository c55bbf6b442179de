import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { useParams, useSearch } from 'wouter';
import { de } from '../i18n/de';

export function followUrl(code: string, query: Record<string, string> = {}): string {
  const q = new URLSearchParams(query).toString();
  return `/s/${encodeURIComponent(code)}${q ? `?${q}` : ''}`;
}

export default function PasswordPage() {
  const { code = '' } = useParams<{ code: string }>();
  const search = new URLSearchParams(useSearch());
  const [password, setPassword] = useState('');
  const [show, setShow] = useState(false);
  function submit(e: FormEvent) {
    e.preventDefault();
    window.location.assign(followUrl(code, { password }));
  }
  return (
    <section className="mx-auto" style={{ maxWidth: 480 }}>
      <h1>{de.password.title}</h1>
      <p>{de.password.text}</p>
      {search.get('wrong') === 'true' && <Alert variant="danger">{de.password.wrong}</Alert>}
      {search.get('locked') === 'true' && <Alert variant="danger">{de.password.locked}</Alert>}
      <Form onSubmit={submit}>
        <Form.Label htmlFor="short-password">{de.password.label}</Form.Label>
        <InputGroup className="mb-3">
          <Form.Control
            id="short-password"
            type={show ? 'text' : 'password'}
            autoComplete="off"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <Button variant="outline-secondary" onClick={() => setShow(!show)} aria-pressed={show}>
            {show ? de.password.hide : de.password.show}
          </Button>
        </InputGroup>
        <Button type="submit">{de.password.open}</Button>
      </Form>
    </section>
  );
}
