import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Pagination from 'react-bootstrap/Pagination';
import { pageBar, parsePageJump } from '../../lib/table';
import { useT } from '../../i18n/context';

export interface PagerProps {
  /** The current page, from 1. */
  page: number;
  pageCount: number;
  /** Called with the chosen page, from 1. */
  onPage: (page: number) => void;
  /**
   * `bar` (the own shorts): the page bar with 2 sibling pages and the page jump, nothing for a
   * single page. `steps` (the admin tables): previous, 'Seite x von y', next; always shown.
   */
  variant?: 'bar' | 'steps';
  /** The test id of the 'Seite x von y' text (`steps`). */
  summaryTestId?: string;
}

/** The one pager of the tables. */
export function Pager({ variant = 'bar', ...props }: PagerProps) {
  return variant === 'steps' ? <StepPager {...props} /> : <BarPager {...props} />;
}

function StepPager({ page, pageCount, onPage, summaryTestId }: Omit<PagerProps, 'variant'>) {
  const { msg, t } = useT();
  const pages = Math.max(1, pageCount);
  return (
    <nav aria-label={msg.table.pagination} className="ms-auto d-flex align-items-center gap-2">
      <Button
        size="sm"
        variant="outline-secondary"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
        aria-label={msg.table.previous}
      >
        ‹
      </Button>
      <span data-testid={summaryTestId}>{t(msg.table.pageOf, { page, pages })}</span>
      <Button
        size="sm"
        variant="outline-secondary"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
        aria-label={msg.table.next}
      >
        ›
      </Button>
    </nav>
  );
}

function BarPager({ page, pageCount, onPage }: Omit<PagerProps, 'variant'>) {
  const { msg, t } = useT();
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
      <nav aria-label={msg.table.pagination}>
        <Pagination className="mb-0 flex-wrap">
          <Pagination.Prev
            disabled={page <= 1}
            onClick={() => onPage(page - 1)}
            aria-label={msg.table.previous}
          />
          {items.map((it) =>
            typeof it === 'number' ? (
              <Pagination.Item
                key={it}
                active={it === page}
                onClick={() => onPage(it)}
                aria-label={t(msg.table.page, { page: it })}
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
            aria-label={msg.table.next}
          />
        </Pagination>
      </nav>
      <Form onSubmit={submit} noValidate className="page-jump" style={{ maxWidth: '16rem' }}>
        <InputGroup hasValidation size="sm">
          <InputGroup.Text as="label" htmlFor="page-jump">
            {msg.table.pageJump}
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
            {msg.table.pageJumpGo}
          </Button>
          {invalid && (
            <Form.Control.Feedback type="invalid" id="page-jump-feedback">
              {t(msg.table.pageJumpInvalid, { count: pageCount })}
            </Form.Control.Feedback>
          )}
        </InputGroup>
      </Form>
    </div>
  );
}
