import type { ReactNode } from 'react';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { ColumnFilter } from './ColumnFilter';
import type { ShortColumn } from './columns';
import { useT } from '../../i18n/context';

export interface ShortsToolbarProps {
  search: string;
  onSearch: (text: string) => void;
  columns: readonly ShortColumn[];
  onToggleColumn: (c: ShortColumn) => void;
  /** A request is under way (the spinner at the end). */
  loading: boolean;
  /** Further actions of the list (buttons), placed before the spinner. */
  children?: ReactNode;
}

/** Above the own-shorts table: search, column filter and the list's other actions (the selection's: components/tags/BulkBar). */
export function ShortsToolbar({
  search,
  onSearch,
  columns,
  onToggleColumn,
  loading,
  children,
}: ShortsToolbarProps) {
  const { msg } = useT();
  return (
    <div className="d-flex flex-wrap gap-2 align-items-end mb-3">
      <Form.Group controlId="shorts-search" className="flex-grow-1" style={{ minWidth: '14rem' }}>
        <Form.Label className="mb-1">{msg.shorts.search}</Form.Label>
        <Form.Control
          type="search"
          value={search}
          placeholder={msg.shorts.searchPlaceholder}
          onChange={(e) => onSearch(e.target.value)}
        />
      </Form.Group>
      <ColumnFilter visible={columns} onToggle={onToggleColumn} />
      {children}
      {loading && <Spinner animation="border" size="sm" role="status" className="ms-1 mb-2" />}
    </div>
  );
}
