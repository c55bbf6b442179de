import { lazy, Suspense } from 'react';
import Accordion from 'react-bootstrap/Accordion';
import Spinner from 'react-bootstrap/Spinner';
import type { Short } from '../../../api/client';
import { de } from '../../../i18n/de';

// The panel (and its chart library) loads only when an owner opens the accordion.
const StatisticsPanel = lazy(() => import('../statistics/StatisticsPanel'));

/**
 * 'Statistiken': 'coming soon' unless the statistics experiment is on; then, for the owner and
 * admins, the short's statistics (loaded when the item is opened), a hint for everyone else.
 */
export function StatisticsItem({
  short,
  statistics,
  canManage,
  open,
}: {
  short: Short;
  statistics: boolean;
  canManage: boolean;
  /** The item is expanded. */
  open: boolean;
}) {
  return (
    <Accordion.Item eventKey="stats">
      <Accordion.Header>{de.info.statistics}</Accordion.Header>
      <Accordion.Body data-testid="statistics-body">
        {!statistics ? (
          de.info.comingSoon
        ) : !canManage ? (
          de.stats.ownerOnly
        ) : open ? (
          <Suspense
            fallback={
              <Spinner animation="border" size="sm" role="status" aria-label={de.stats.loading} />
            }
          >
            <StatisticsPanel id={short.id} />
          </Suspense>
        ) : null}
      </Accordion.Body>
    </Accordion.Item>
  );
}
