import Accordion from 'react-bootstrap/Accordion';
import type { Short } from '../../../api/client';
import { de } from '../../../i18n/de';

/** 'Statistiken': 'coming soon' unless the statistics experiment is on (then what is planned). */
export function StatisticsItem({ statistics }: { short: Short; statistics: boolean }) {
  return (
    <Accordion.Item eventKey="stats">
      <Accordion.Header>{de.info.statistics}</Accordion.Header>
      <Accordion.Body data-testid="statistics-body">
        {statistics ? de.info.statisticsPlanned : de.info.comingSoon}
      </Accordion.Body>
    </Accordion.Item>
  );
}
