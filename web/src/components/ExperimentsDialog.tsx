import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useSnapshot } from 'valtio';
import { FLAGS, SERVER_ONLY } from '../lib/flag-rule';
import { flags, setLocalFlag } from '../state/flags';
import { useT } from '../i18n/context';

// The statistics and the language switch are no experiments: the server alone switches them
// (SERVER_ONLY).
const SWITCHABLE = [FLAGS.experimentSwitch, FLAGS.accountWizard];

export function ExperimentsDialog() {
  const { msg } = useT();
  const f = useSnapshot(flags);
  const close = () => {
    flags.showExperimentDialog = false;
  };
  return (
    <Modal show={f.showExperimentDialog} onHide={close} aria-labelledby="experiments-title">
      <Modal.Header closeButton closeLabel={msg.experiments.close}>
        <Modal.Title id="experiments-title">{msg.experiments.title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p>{msg.experiments.text}</p>
        {SWITCHABLE.map((name) => {
          const serverOn = Boolean(f.server[name]) || name === FLAGS.experimentSwitch;
          const fixed = SERVER_ONLY.has(name);
          return (
            <Form.Check
              key={name}
              type="switch"
              id={`flag-${name}`}
              label={`${msg.experiments.names[name] ?? name}${serverOn ? '' : ` (${msg.experiments.unavailable})`}`}
              checked={Boolean(f.enabled[name])}
              disabled={fixed || !serverOn}
              onChange={(e) => setLocalFlag(name, e.currentTarget.checked)}
            />
          );
        })}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={() => location.reload()}>
          {msg.experiments.reload}
        </Button>
        <Button variant="primary" onClick={close}>
          {msg.experiments.close}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
