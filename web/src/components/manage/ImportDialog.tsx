import Modal from 'react-bootstrap/Modal';
import { ImportSteps } from './import/ImportSteps';

/** 'Importieren': a CSV file or pasted text → preview and column mapping → chunks → result. */
export function ImportDialog({ show, onClose }: { show: boolean; onClose: () => void }) {
  return (
    <Modal show={show} onHide={onClose} size="lg" aria-labelledby="import-title">
      {show && <ImportSteps onClose={onClose} />}
    </Modal>
  );
}
