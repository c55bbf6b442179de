import Toast from 'react-bootstrap/Toast';
import ToastContainer from 'react-bootstrap/ToastContainer';
import { useSnapshot } from 'valtio';
import { dismissToast, toasts, type ToastKind } from '../state/toasts';
import { useT } from '../i18n/context';

const BG: Record<ToastKind, string> = {
  success: 'success',
  info: 'info',
  warning: 'warning',
  error: 'danger',
};

/** Toasts: bottom-right, auto-close after 5000 ms, at most 5 at once (state/toasts.ts). */
export function Toasts() {
  const { msg } = useT();
  const s = useSnapshot(toasts);
  return (
    <ToastContainer position="bottom-end" className="p-3 position-fixed" style={{ zIndex: 1090 }}>
      {s.list.map((x) => (
        <Toast
          key={x.id}
          bg={BG[x.kind]}
          onClose={() => dismissToast(x.id)}
          data-testid={`toast-${x.id}`}
        >
          <Toast.Body
            className={`d-flex gap-2 align-items-start ${x.kind === 'info' || x.kind === 'warning' ? 'text-dark' : 'text-white'}`}
          >
            <span role={x.kind === 'error' ? 'alert' : 'status'} className="flex-grow-1">
              {x.text}
            </span>
            {x.closable && (
              <button
                type="button"
                className={`btn-close ${x.kind === 'info' || x.kind === 'warning' ? '' : 'btn-close-white'}`}
                aria-label={msg.toasts.close}
                onClick={() => dismissToast(x.id)}
              />
            )}
          </Toast.Body>
        </Toast>
      ))}
    </ToastContainer>
  );
}
