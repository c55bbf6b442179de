import type { RedirectRule } from '@shared/redirect-rules';
import { useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { useShortStatistics } from '../../../api/queries/statistics';
import { locale } from '../../../i18n/current';
import { errorText } from '../../../lib/errors';
import {
  bucketLabel,
  entryName,
  rangeQuery,
  STATS_RANGES,
  statisticsCsvUrl,
  type StatisticsAnswer,
  type StatsEntry,
  type StatsRange,
  withShares,
} from '../../../lib/statistics';
import { StatsChart, type Figure } from './StatsChart';
import { useT } from '../../../i18n/context';

export type ListKey = 'referrers' | 'countries' | 'devices' | 'browsers' | 'os' | 'targets';
export type { Figure };

const FIGURES: readonly Figure[] = ['visits', 'visitors', 'bots'];

/** Every top list, in the panel's order. */
const LISTS: readonly ListKey[] = [
  'referrers',
  'countries',
  'devices',
  'browsers',
  'os',
  'targets',
];

type Rules = readonly Pick<RedirectRule, 'conditions'>[];

/**
 * The statistics of one short for its owner and admins; loaded with its tab (lazily). `rules`:
 * the short's redirect rules, so that the targets name them ('Regel 1: iOS').
 */
export default function StatisticsPanel({ id, rules }: { id: string; rules?: Rules }) {
  const range = useStatsRange();
  const result = useShortStatistics(id, range.query);
  return (
    <StatisticsFrame
      range={range}
      csvUrl={statisticsCsvUrl(id, range.query)}
      result={result}
      rules={rules}
    />
  );
}

/** The chosen range and its query (fixed when it is chosen, not on every render). */
export function useStatsRange() {
  const [range, setRange] = useState<StatsRange>('30d');
  const [query, setQuery] = useState(() => rangeQuery('30d'));
  const choose = (r: StatsRange) => {
    setRange(r);
    setQuery(rangeQuery(r));
  };
  return { range, query, choose };
}

export interface StatisticsFrameProps<T extends StatisticsAnswer> {
  range: ReturnType<typeof useStatsRange>;
  /** The CSV of the same range (none: no download offered). */
  csvUrl?: string;
  /** The statistics call's state. */
  result: { data?: T; error: unknown; isFetching: boolean };
  rules?: Rules;
  /** The top lists shown (all by default). */
  lists?: readonly ListKey[];
  /** The figures shown (all by default; a link page keeps no visitors). */
  figures?: readonly Figure[];
  /** More of the answer, after the top lists (a tag's top shorts). */
  children?: (data: T) => ReactNode;
}

/**
 * The statistics of a range, whoever's they are (a short's, a tag's): the range, the CSV, the
 * totals, the chart, the top lists and the numbers as a table.
 */
export function StatisticsFrame<T extends StatisticsAnswer>({
  range: { range, choose },
  csvUrl,
  result: { data, error, isFetching },
  rules,
  lists = LISTS,
  figures = FIGURES,
  children,
}: StatisticsFrameProps<T>) {
  const { msg } = useT();
  return (
    <div data-testid="stats-panel">
      <div className="d-flex flex-wrap gap-2 align-items-end mb-3">
        <Form.Group controlId="stats-range">
          <Form.Label className="mb-1">{msg.stats.range}</Form.Label>
          <Form.Select value={range} onChange={(e) => choose(e.target.value as StatsRange)}>
            {STATS_RANGES.map((r) => (
              <option key={r} value={r}>
                {msg.stats.ranges[r]}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        {csvUrl && (
          <a className="btn btn-outline-secondary" href={csvUrl} download>
            {msg.stats.downloadCsv}
          </a>
        )}
        {isFetching && (
          <Spinner
            animation="border"
            size="sm"
            role="status"
            aria-label={msg.stats.loading}
            className="mb-2"
          />
        )}
      </div>
      {error ? (
        <Alert variant="danger">{errorText(error, msg.stats.loadError)}</Alert>
      ) : !data ? null : (
        <StatsView data={data} rules={rules} lists={lists} figures={figures}>
          {children?.(data)}
        </StatsView>
      )}
    </div>
  );
}

function StatsView({
  data,
  rules,
  lists,
  figures,
  children,
}: {
  data: StatisticsAnswer;
  rules?: Rules;
  lists: readonly ListKey[];
  figures: readonly Figure[];
  children?: ReactNode;
}) {
  const { msg } = useT();
  const { total } = data;
  return (
    <>
      <Row className="g-2 mb-3 text-center" data-testid="stats-totals">
        {figures.map((k) => (
          <Col key={k} xs={12 / figures.length}>
            <div className="border rounded p-2">
              <div className="fs-4 fw-semibold" data-testid={`stats-total-${k}`}>
                {total[k].toLocaleString(locale())}
              </div>
              <div className="small text-body-secondary">{msg.stats[k]}</div>
            </div>
          </Col>
        ))}
      </Row>
      {total.visits === 0 && total.bots === 0 ? (
        <p data-testid="stats-empty">{msg.stats.empty}</p>
      ) : (
        <>
          <StatsChart data={data} figures={figures} />
          {lists.length > 0 && (
            <Row className="g-3 mb-3">
              {lists.map((list) => (
                <TopList
                  key={list}
                  title={msg.stats[list]}
                  list={list}
                  entries={data[list] ?? []}
                  rules={list === 'targets' ? rules : undefined}
                />
              ))}
            </Row>
          )}
        </>
      )}
      {children}
      <details>
        <summary>{msg.stats.table}</summary>
        <Table size="sm" responsive className="mt-2" data-testid="stats-table">
          <caption className="visually-hidden">{msg.stats.tableCaption}</caption>
          <thead>
            <tr>
              <th scope="col">{msg.stats.start}</th>
              {figures.map((k) => (
                <th key={k} scope="col" className="text-end">
                  {msg.stats[k]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.series.map((b) => (
              <tr key={b.start} data-start={b.start}>
                <th scope="row" className="fw-normal">
                  {bucketLabel(b.start, data.granularity)}
                </th>
                {figures.map((k) => (
                  <td key={k} className="text-end">
                    {b[k]}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </Table>
      </details>
    </>
  );
}

function TopList({
  title,
  list,
  entries,
  rules,
}: {
  title: string;
  list: ListKey;
  entries: StatsEntry[];
  rules?: Rules;
}) {
  const { msg } = useT();
  return (
    <Col md={6} lg={4}>
      <h3 className="h6">
        {list === 'referrers' || list === 'countries' ? `${msg.stats.origin}: ${title}` : title}
      </h3>
      {entries.length === 0 ? (
        <p className="small text-body-secondary">{msg.stats.none}</p>
      ) : (
        <Table size="sm" className="mb-0" data-testid={`stats-${list}`}>
          <thead className="visually-hidden">
            <tr>
              <th scope="col">{msg.stats.name}</th>
              <th scope="col">{msg.stats.count}</th>
              <th scope="col">{msg.infoPage.share}</th>
            </tr>
          </thead>
          <tbody>
            {withShares(entries).map((e) => (
              <tr key={e.name}>
                <td className="text-break w-100">
                  {entryName(list, e.name, rules)}
                  {/* The share as a bar; its number is the last cell. */}
                  <div className="progress mt-1" style={{ height: '0.3rem' }} aria-hidden="true">
                    <div className="progress-bar" style={{ width: `${e.share * 100}%` }} />
                  </div>
                </td>
                <td className="text-end">{e.count.toLocaleString(locale())}</td>
                <td className="text-end text-nowrap text-body-secondary">{e.percent}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Col>
  );
}
