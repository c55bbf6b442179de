import type { RedirectRule } from '@shared/redirect-rules';
import { useState } from 'react';
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
import { StatsChart } from './StatsChart';
import { useT } from '../../../i18n/context';

type ListKey = 'referrers' | 'countries' | 'devices' | 'browsers' | 'os' | 'targets';

type Rules = readonly Pick<RedirectRule, 'conditions'>[];

/**
 * The statistics of one short for its owner and admins; loaded with its tab (lazily). `rules`:
 * the short's redirect rules, so that the targets name them ('Regel 1: iOS').
 */
export default function StatisticsPanel({ id, rules }: { id: string; rules?: Rules }) {
  const { msg } = useT();
  const [range, setRange] = useState<StatsRange>('30d');
  // The range's query is fixed when it is chosen (not on every render).
  const [query, setQuery] = useState(() => rangeQuery('30d'));
  const { data, error, isFetching } = useShortStatistics(id, query);

  return (
    <div data-testid="stats-panel">
      <div className="d-flex flex-wrap gap-2 align-items-end mb-3">
        <Form.Group controlId="stats-range">
          <Form.Label className="mb-1">{msg.stats.range}</Form.Label>
          <Form.Select
            value={range}
            onChange={(e) => {
              const r = e.target.value as StatsRange;
              setRange(r);
              setQuery(rangeQuery(r));
            }}
          >
            {STATS_RANGES.map((r) => (
              <option key={r} value={r}>
                {msg.stats.ranges[r]}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <a className="btn btn-outline-secondary" href={statisticsCsvUrl(id, query)} download>
          {msg.stats.downloadCsv}
        </a>
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
        <StatsView data={data} rules={rules} />
      )}
    </div>
  );
}

function StatsView({ data, rules }: { data: StatisticsAnswer; rules?: Rules }) {
  const { msg } = useT();
  const { total } = data;
  return (
    <>
      <Row className="g-2 mb-3 text-center" data-testid="stats-totals">
        {(['visits', 'visitors', 'bots'] as const).map((k) => (
          <Col key={k} xs={4}>
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
          <StatsChart data={data} />
          <Row className="g-3 mb-3">
            <TopList title={msg.stats.referrers} list="referrers" entries={data.referrers} />
            <TopList title={msg.stats.countries} list="countries" entries={data.countries} />
            <TopList title={msg.stats.devices} list="devices" entries={data.devices} />
            <TopList title={msg.stats.browsers} list="browsers" entries={data.browsers} />
            <TopList title={msg.stats.os} list="os" entries={data.os} />
            <TopList
              title={msg.stats.targets}
              list="targets"
              entries={data.targets}
              rules={rules}
            />
          </Row>
        </>
      )}
      <details>
        <summary>{msg.stats.table}</summary>
        <Table size="sm" responsive className="mt-2" data-testid="stats-table">
          <caption className="visually-hidden">{msg.stats.tableCaption}</caption>
          <thead>
            <tr>
              <th scope="col">{msg.stats.start}</th>
              <th scope="col" className="text-end">
                {msg.stats.visits}
              </th>
              <th scope="col" className="text-end">
                {msg.stats.visitors}
              </th>
              <th scope="col" className="text-end">
                {msg.stats.bots}
              </th>
            </tr>
          </thead>
          <tbody>
            {data.series.map((b) => (
              <tr key={b.start} data-start={b.start}>
                <th scope="row" className="fw-normal">
                  {bucketLabel(b.start, data.granularity)}
                </th>
                <td className="text-end">{b.visits}</td>
                <td className="text-end">{b.visitors}</td>
                <td className="text-end">{b.bots}</td>
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
