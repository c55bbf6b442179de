import Accordion from 'react-bootstrap/Accordion';
import type { Short } from '../../../api/client';
import { de } from '../../../i18n/de';

/** 'Beschwerden': 'coming soon' unless the statistics experiment is on (then what is planned). */
export function ComplaintsItem({ statistics }: { short: Short; statistics: boolean }) {
  return (
    <Accordion.Item eventKey="complaints">
      <Accordion.Header>{de.info.complaints}</Accordion.Header>
      <Accordion.Body data-testid="complaints-body">
        {statistics ? de.info.complaintsPlanned : de.info.comingSoon}
      </Accordion.Body>
    </Accordion.Item>
  );
}
