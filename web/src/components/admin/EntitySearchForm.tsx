import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { useT } from '../../i18n/context';

/** The query-string search of an admin table; `onSearch` gets the trimmed query on submit. */
export function EntitySearchForm({
  id,
  onSearch,
}: {
  id: string;
  onSearch: (query: string) => void;
}) {
  const { msg } = useT();
  const [input, setInput] = useState('');
  function submit(e: FormEvent) {
    e.preventDefault();
    onSearch(input.trim());
  }
  return (
    <Form onSubmit={submit} className="mb-3" role="search">
      <Form.Label htmlFor={id}>{msg.admin.search}</Form.Label>
      <InputGroup>
        <Form.Control
          id={id}
          value={input}
          placeholder={msg.admin.searchPlaceholder}
          aria-describedby={`${id}-help`}
          onChange={(e) => setInput(e.target.value)}
        />
        <Button type="submit" variant="primary">
          {msg.admin.searchSubmit}
        </Button>
      </InputGroup>
      <Form.Text id={`${id}-help`}>{msg.admin.searchHelp}</Form.Text>
    </Form>
  );
}
