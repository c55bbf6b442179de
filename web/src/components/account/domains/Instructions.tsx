import { type Domain } from '../../../lib/domains';
import { useT } from '../../../i18n/context';
import { CopyField } from './CopyField';

/** The TXT record that verifies the domain and where the domain should point. */
export function Instructions({ domain: d }: { domain: Domain }) {
  const { msg, t } = useT();
  const v = d.verification;
  return (
    <div className="mb-2" data-testid="domain-instructions">
      <p className="fw-semibold mb-1">{msg.domains.instructions}</p>
      <p className="mb-2">{msg.domains.txtStep}</p>
      <CopyField id={`domain-record-${d.id}`} label={msg.domains.record} value={v.record} />
      <CopyField id={`domain-value-${d.id}`} label={msg.domains.value} value={v.value} />
      <p className="small mb-2">{t(msg.domains.pointStep, { target: v.target })}</p>
    </div>
  );
}
