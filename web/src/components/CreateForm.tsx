import { useEffect, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import { api, unwrap, type CreateShort } from '../api/client';
import { de, t } from '../i18n/de';
import { errorText } from '../lib/errors';
import { formatDateTime, parseExpiry } from '../lib/expiry';
import { auth } from '../state/auth';
import { toast } from '../state/toasts';

export function CreateForm() {
  const a = useSnapshot(auth);
  const loggedIn = a.status === 'authenticated';
  const [, navigate] = useLocation();
  const [url, setUrl] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [expiry, setExpiry] = useState('');
  const [expireAt, setExpireAt] = useState<Date | null>(null);
  const [maxUses, setMaxUses] = useState('');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    if (!loggedIn) return;
    void parseExpiry(expiry).then((d) => {
      if (live) setExpireAt(d);
    });
    return () => {
      live = false;
    };
  }, [expiry, loggedIn]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    const body: CreateShort = { url: url.trim(), password: password || null };
    if (loggedIn) {
      body.code = code.trim() || null;
      body.expireAt = expireAt ? expireAt.toISOString() : null;
      body.maxUses = maxUses.trim() ? Number(maxUses) : null;
      body.name = name.trim() || null;
    }
    try {
      const created = await unwrap(api.POST('/api/code', { body }));
      toast.success(de.create.success);
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
          <Form.Group className="mb-3" controlId="create-url">
            <Form.Label>{de.fields.url}</Form.Label>
            <Form.Control
              type="url"
              required
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder={de.create.urlPlaceholder}
            />
          </Form.Group>
          <Form.Group className="mb-3" controlId="create-password">
            <Form.Label>{de.create.password}</Form.Label>
            <Form.Control
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </Form.Group>
          {loggedIn && (
            <>
              <Form.Group className="mb-3" controlId="create-code">
                <Form.Label>{de.fields.code}</Form.Label>
                <Form.Control
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                  placeholder={de.create.codePlaceholder}
                />
              </Form.Group>
              <Form.Group className="mb-3" controlId="create-expiry">
                <Form.Label>{de.fields.expireAt}</Form.Label>
                <Form.Control
                  value={expiry}
                  onChange={(e) => setExpiry(e.target.value)}
                  placeholder={de.create.expiryPlaceholder}
                />
                {expireAt && (
                  <Form.Text>
                    {t(de.create.understoodAs, { date: formatDateTime(expireAt) })}
                  </Form.Text>
                )}
              </Form.Group>
              <Form.Group className="mb-3" controlId="create-maxuses">
                <Form.Label>{de.fields.maxUses}</Form.Label>
                <Form.Control
                  type="number"
                  min={1}
                  step={1}
                  inputMode="numeric"
                  value={maxUses}
                  onChange={(e) => setMaxUses(e.target.value)}
                  placeholder={de.create.unlimited}
                />
              </Form.Group>
              <Form.Group className="mb-3" controlId="create-name">
                <Form.Label>{de.fields.name}</Form.Label>
                <Form.Control
                  value={name}
                  onChange={(e) => setName(e.target.value)}
                  placeholder={de.create.namePlaceholder}
                />
              </Form.Group>
            </>
          )}
          <Button type="submit" disabled={busy}>
            {de.create.submit}
          </Button>
        </Form>
      </Card.Body>
    </Card>
  );
}
