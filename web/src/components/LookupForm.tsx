import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { useLocation } from 'wouter';
import { parseLookup } from '../lib/lookup';
import { toast } from '../state/toasts';
import { useT } from '../i18n/context';

export function LookupForm() {
  const { msg } = useT();
  const [, navigate] = useLocation();
  const [value, setValue] = useState('');
  function submit(e: FormEvent) {
    e.preventDefault();
    const code = parseLookup(value);
    if (!code) {
      toast.warning(msg.lookup.invalid);
      return;
    }
    navigate(`/s/${encodeURIComponent(code)}/info`);
  }
  return (
    <Card className="mb-4 shadow-sm">
      <Card.Body>
        <h2 className="h4">{msg.lookup.title}</h2>
        <Form onSubmit={submit} noValidate>
          <Form.Label htmlFor="lookup-input">{msg.lookup.label}</Form.Label>
          <InputGroup>
            <Form.Control
              id="lookup-input"
              value={value}
              onChange={(e) => setValue(e.target.value)}
              placeholder={msg.lookup.placeholder}
            />
            <Button type="submit" variant="outline-primary">
              {msg.lookup.submit}
            </Button>
          </InputGroup>
        </Form>
      </Card.Body>
    </Card>
  );
}
