import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useSnapshot } from 'valtio';
import { de } from '../i18n/de';
import { FLAGS, SERVER_ONLY } from '../lib/flag-rule';
import { flags, setLocalFlag } from '../state/flags';

// The statistics are no experiment: the server alone switches them (SERVER_ONLY).
const SWITCHABLE = [FLAGS.experimentSwitch, FLAGS.accountWizard, FLAGS.languageSwitch];

export function ExperimentsDialog() {
  const f = useSnapshot(flags);
  const close = () => {
    flags.showExperimentDialog = false;
  };
  return (
    <Modal show={f.showExperimentDialog} onHide={close} aria-labelledby="experiments-title">
      <Modal.Header closeButton closeLabel={de.experiments.close}>
        <Modal.Title id="experiments-title">{de.experiments.title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p>{de.experiments.text}</p>
        {SWITCHABLE.map((name) => {
          const serverOn = Boolean(f.server[name]) || name === FLAGS.experimentSwitch;
          const fixed = SERVER_ONLY.has(name);
          return (
            <Form.Check
              key={name}
              type="switch"
              id={`flag-${name}`}
              label={`${de.experiments.names[name] ?? name}${serverOn ? '' : ` (${de.experiments.unavailable})`}`}
              checked={Boolean(f.enabled[name])}
              disabled={fixed || !serverOn}
              onChange={(e) => setLocalFlag(name, e.currentTarget.checked)}
            />
          );
        })}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={() => location.reload()}>
          {de.experiments.reload}
        </Button>
        <Button variant="primary" onClick={close}>
          {de.experiments.close}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
