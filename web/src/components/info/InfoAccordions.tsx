import { useState } from 'react';
import Accordion from 'react-bootstrap/Accordion';
import { useSnapshot } from 'valtio';
import type { Short } from '../../api/client';
import { FLAGS } from '../../lib/flag-rule';
import { flags } from '../../state/flags';
import { ComplaintsItem } from './accordions/ComplaintsItem';
import { StatisticsItem } from './accordions/StatisticsItem';

/** The info page's accordions, one component each (accordions/); all closed at first. */
export function InfoAccordions({ short, canManage }: { short: Short; canManage: boolean }) {
  // The accordions say 'coming soon' unless the statistics experiment is switched on.
  const statistics = Boolean(useSnapshot(flags).enabled[FLAGS.statistics]);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <Accordion
      className="mb-3"
      activeKey={open}
      onSelect={(key) => setOpen(typeof key === 'string' ? key : null)}
    >
      <StatisticsItem
        short={short}
        statistics={statistics}
        canManage={canManage}
        open={open === 'stats'}
      />
      <ComplaintsItem short={short} statistics={statistics} canManage={canManage} />
    </Accordion>
  );
}
