import type { ReactNode } from 'react';
import Badge from 'react-bootstrap/Badge';
import { Link } from 'wouter';
import type { Short } from '../../api/client';
import { locale, msg } from '../../i18n/current';
import { formatDateTime } from '../../lib/expiry';
import type { SortState } from '../../lib/table';
import { usesText } from '../../lib/uses';
import { TagChips } from '../tags/TagChips';
import { ShortBadges } from './ShortBadges';
import { UrlCell } from './UrlCell';

/**
 * The columns of the own-shorts table, in table order: the one place that says what a column is
 * called, whether it is hidden by default and how its cell reads. The column id is also the
 * server's sort field (GET /api/code?sort=id,dir), unless the column is not `sortable`. A new
 * column is one entry here.
 */
export const SHORT_COLUMNS = [
  'id',
  'name',
  'code',
  'domain',
  'shortUrl',
  'url',
  'visits',
  'uses',
  'maxUses',
  'dangers',
  'createdAt',
  'expireAt',
] as const;
export type ShortColumn = (typeof SHORT_COLUMNS)[number];

export interface ShortColumnDef {
  label: string;
  /** Hidden until switched on in the column filter. */
  hiddenByDefault?: boolean;
  /** false: the server cannot sort by it (no sort button). */
  sortable?: false;
  cell: (s: Short) => ReactNode;
}

/** The code as a link to the short's info page. */
export function codeLink(s: Short): ReactNode {
  const info = `/s/${encodeURIComponent(s.code)}/info`;
  // A short on an own domain: its info page here, naming the domain (?domain=).
  const on = s.domain ? `?domain=${encodeURIComponent(s.domain)}` : '';
  return <Link href={info + on}>{s.code}</Link>;
}

export const COLUMNS: Readonly<Record<ShortColumn, ShortColumnDef>> = {
  id: {
    get label() {
      return msg.shorts.columns.id;
    },
    hiddenByDefault: true,
    cell: (s) => <code className="small">{s.id}</code>,
  },
  name: {
    get label() {
      return msg.shorts.columns.name;
    },
    // The short's tags as chips under its name (SPEC's columns stay as they are); each chip
    // filters the list by its tag as well.
    cell: (s) => (
      <>
        {s.name ?? ''}
        <TagChips short={s} />
      </>
    ),
  },
  code: {
    get label() {
      return msg.shorts.columns.code;
    },
    // The code and the short's state (abgelaufen, aufgebraucht, Passwort, gefährlich).
    cell: (s) => (
      <span className="d-inline-flex flex-wrap align-items-center gap-2">
        {codeLink(s)}
        <ShortBadges short={s} />
      </span>
    ),
  },
  domain: {
    get label() {
      return msg.shorts.columns.domain;
    },
    hiddenByDefault: true,
    cell: (s) => s.domain ?? <span className="text-body-secondary">{msg.shorts.mainHost}</span>,
  },
  shortUrl: {
    get label() {
      return msg.shorts.columns.shortUrl;
    },
    hiddenByDefault: true,
    sortable: false,
    cell: (s) => <span className="text-break">{s.shortUrl}</span>,
  },
  url: {
    get label() {
      return msg.shorts.columns.url;
    },
    cell: (s) => <UrlCell url={s.url} />,
  },
  visits: {
    get label() {
      return msg.shorts.columns.visits;
    },
    cell: (s) => (s.visits ?? 0).toLocaleString(locale()),
  },
  uses: {
    get label() {
      return msg.shorts.columns.uses;
    },
    hiddenByDefault: true,
    cell: (s) => usesText(s) ?? '',
  },
  maxUses: {
    get label() {
      return msg.shorts.columns.maxUses;
    },
    hiddenByDefault: true,
    cell: (s) => s.maxUses ?? msg.shorts.unlimited,
  },
  dangers: {
    get label() {
      return msg.shorts.columns.dangers;
    },
    hiddenByDefault: true,
    cell: (s) =>
      s.dangers ? (
        <Badge bg="danger">{msg.shorts.dangerous}</Badge>
      ) : (
        <Badge bg="success">{msg.shorts.harmless}</Badge>
      ),
  },
  createdAt: {
    get label() {
      return msg.shorts.columns.createdAt;
    },
    cell: (s) => <span className="text-nowrap">{formatDateTime(s.createdAt)}</span>,
  },
  expireAt: {
    get label() {
      return msg.shorts.columns.expireAt;
    },
    cell: (s) => (
      <span className="text-nowrap">
        {s.expireAt ? formatDateTime(s.expireAt) : msg.shorts.never}
      </span>
    ),
  },
};

/** ID, Domain, Short-Link, Nutzungen, Max. Aufrufe and Bedrohlichkeit are hidden by default. */
export function defaultVisibleColumns(): ShortColumn[] {
  return SHORT_COLUMNS.filter((c) => !COLUMNS[c].hiddenByDefault);
}

/** Newest first by default. */
export const DEFAULT_SORT: SortState<ShortColumn> = { field: 'createdAt', dir: 'desc' };
/** The search asks the server 500 ms after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 500;
