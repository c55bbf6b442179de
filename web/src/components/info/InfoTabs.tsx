import { lazy, Suspense, type ReactNode } from 'react';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { useSnapshot } from 'valtio';
import type { Short } from '../../api/client';
import { FLAGS } from '../../lib/flag-rule';
import { useUrlQuery } from '../../lib/useUrlQuery';
import { flags } from '../../state/flags';
import { ComplaintsList } from './ComplaintsList';
import { useT } from '../../i18n/context';

// The panel (and its chart library) loads only when its tab is opened.
const StatisticsPanel = lazy(() => import('./statistics/StatisticsPanel'));

const TABS = ['overview', 'statistics', 'complaints'] as const;
type TabKey = (typeof TABS)[number];

/**
 * The info page's parts. Owners and admins get tabs at the top: the overview, the short's
 * statistics and its reports, whenever the server offers statistics (`url.frontend.statistics`,
 * on by default; no opt-in, no consent). Everyone else sees the overview alone. The open tab is
 * in the address (`?tab=statistics`), so it can be linked and survives a reload.
 */
export function InfoTabs({
  short,
  canManage,
  children,
}: {
  short: Short;
  canManage: boolean;
  /** The overview: the short's facts, actions and preview. */
  children: ReactNode;
}) {
  const { msg } = useT();
  const statistics = Boolean(useSnapshot(flags).enabled[FLAGS.statistics]);
  const [query, setQuery] = useUrlQuery();
  if (!statistics || !canManage) return <>{children}</>;
  const asked = query.get('tab');
  const active: TabKey = TABS.find((k) => k === asked) ?? 'overview';
  return (
    <Tabs
      id="info-tabs"
      className="mb-3"
      activeKey={active}
      onSelect={(key) => setQuery({ tab: key && key !== 'overview' ? key : null })}
      mountOnEnter
      aria-label={msg.infoPage.tabs}
    >
      <Tab eventKey="overview" title={msg.infoPage.overview}>
        {children}
      </Tab>
      <Tab eventKey="statistics" title={msg.info.statistics} data-testid="statistics-body">
        <Card>
          <Card.Body>
            <Suspense
              fallback={
                <Spinner
                  animation="border"
                  size="sm"
                  role="status"
                  aria-label={msg.stats.loading}
                />
              }
            >
              <StatisticsPanel id={short.id} rules={short.rules} />
            </Suspense>
          </Card.Body>
        </Card>
      </Tab>
      <Tab eventKey="complaints" title={msg.info.complaints} data-testid="complaints-body">
        <Card>
          <Card.Body>
            <ComplaintsList id={short.id} />
          </Card.Body>
        </Card>
      </Tab>
    </Tabs>
  );
}
