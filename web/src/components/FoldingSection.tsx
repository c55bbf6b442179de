import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';

export interface FoldingSectionProps {
  /** The body's id (the button's `aria-controls`). */
  id: string;
  /** The button's text (the section's heading). */
  label: string;
  open: boolean;
  onToggle: (open: boolean) => void;
  /** Shown beside the button while folded (what the section holds), if anything. */
  folded?: ReactNode;
  'data-testid'?: string;
  /** The body, rendered only while open. */
  children: ReactNode;
}

/**
 * A folding section of the logged-in short form (UTM parameters, the social preview): a link
 * button with ▸/▾ and `aria-expanded`, a line beside it while folded, and the body indented below.
 */
export function FoldingSection({
  id,
  label,
  open,
  onToggle,
  folded,
  'data-testid': testId,
  children,
}: FoldingSectionProps) {
  return (
    <div className="mb-3" data-testid={testId}>
      <div className="d-flex align-items-center gap-2">
        <Button
          variant="link"
          className="px-0 text-decoration-none"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => onToggle(!open)}
        >
          <span aria-hidden="true" className="me-1">
            {open ? '▾' : '▸'}
          </span>
          {label}
        </Button>
        {!open && folded}
      </div>
      <div id={id} hidden={!open} className="border-start ps-3 mt-2">
        {open && children}
      </div>
    </div>
  );
}
