import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Pagination from 'react-bootstrap/Pagination';
import { de, t } from '../../i18n/de';
import { pageBar, parsePageJump } from '../../lib/table';

/** The page bar (2 sibling pages) and the page jump; `page` is 1-based here. Nothing for a single page. */
export function Pager({
  page,
  pageCount,
  onPage,
}: {
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
}) {
  const [jump, setJump] = useState('');
  const [invalid, setInvalid] = useState(false);
  const items = pageBar(page, pageCount);
  if (items.length === 0) return null;

  function submit(e: FormEvent) {
    e.preventDefault();
    const target = parsePageJump(jump, pageCount);
    setInvalid(target === null);
    if (target !== null) {
      setJump('');
      onPage(target);
    }
  }

  return (
    <div className="d-flex flex-wrap gap-3 align-items-start justify-content-between">
      <nav aria-label={de.shorts.pagination}>
        <Pagination className="mb-0 flex-wrap">
          <Pagination.Prev
            disabled={page <= 1}
            onClick={() => onPage(page - 1)}
            aria-label={de.shorts.previous}
          />
          {items.map((it) =>
            typeof it === 'number' ? (
              <Pagination.Item
                key={it}
                active={it === page}
                onClick={() => onPage(it)}
                aria-label={t(de.shorts.page, { page: it })}
                activeLabel=""
                aria-current={it === page ? 'page' : undefined}
                data-testid={`page-${it}`}
              >
                {it}
              </Pagination.Item>
            ) : (
              <Pagination.Ellipsis key={it} disabled aria-hidden="true" />
            ),
          )}
          <Pagination.Next
            disabled={page >= pageCount}
            onClick={() => onPage(page + 1)}
            aria-label={de.shorts.next}
          />
        </Pagination>
      </nav>
      <Form onSubmit={submit} noValidate className="page-jump" style={{ maxWidth: '16rem' }}>
        <InputGroup hasValidation size="sm">
          <InputGroup.Text as="label" htmlFor="page-jump">
            {de.shorts.pageJump}
          </InputGroup.Text>
          <Form.Control
            id="page-jump"
            type="number"
            inputMode="numeric"
            min={1}
            max={pageCount}
            value={jump}
            isInvalid={invalid}
            aria-describedby={invalid ? 'page-jump-feedback' : undefined}
            onChange={(e) => {
              setJump(e.target.value);
              setInvalid(false);
            }}
          />
          <Button type="submit" variant="outline-primary">
            {de.shorts.pageJumpGo}
          </Button>
          {invalid && (
            <Form.Control.Feedback type="invalid" id="page-jump-feedback">
              {t(de.shorts.pageJumpInvalid, { count: pageCount })}
            </Form.Control.Feedback>
          )}
        </InputGroup>
      </Form>
    </div>
  );
}
