import { proxy } from 'valtio';

export type ToastKind = 'success' | 'info' | 'warning' | 'error';
export interface Toast {
  id: string;
  kind: ToastKind;
  text: string;
  /** Stays until dismissed (or forever when not closable). */
  persistent: boolean;
  closable: boolean;
}

/** Toasts: bottom-right, auto-close after 5000 ms, at most 5 at once (the oldest closable goes first). */
export const TOAST_AUTO_CLOSE_MS = 5000;
export const TOAST_MAX = 5;

export const toasts = proxy({ list: [] as Toast[] });

let seq = 0;
const timers = new Map<string, ReturnType<typeof setTimeout>>();

export function dismissToast(id: string): void {
  const i = toasts.list.findIndex((t) => t.id === id);
  if (i >= 0) toasts.list.splice(i, 1);
  const timer = timers.get(id);
  if (timer) clearTimeout(timer);
  timers.delete(id);
}

export function showToast(
  kind: ToastKind,
  text: string,
  opts: { id?: string; persistent?: boolean; closable?: boolean } = {},
): string {
  const id = opts.id ?? `t${++seq}`;
  if (toasts.list.some((t) => t.id === id)) return id;
  const toast: Toast = {
    id,
    kind,
    text,
    persistent: opts.persistent ?? false,
    closable: opts.closable ?? true,
  };
  toasts.list.push(toast);
  // Over the limit: drop the oldest dismissible toast.
  while (toasts.list.length > TOAST_MAX) {
    const old =
      toasts.list.find((t) => t.closable && !t.persistent) ?? toasts.list.find((t) => t.closable);
    if (!old) break;
    dismissToast(old.id);
  }
  if (!toast.persistent)
    timers.set(
      id,
      setTimeout(() => dismissToast(id), TOAST_AUTO_CLOSE_MS),
    );
  return id;
}

export const toast = {
  success: (text: string) => showToast('success', text),
  info: (text: string) => showToast('info', text),
  warning: (text: string) => showToast('warning', text),
  error: (text: string) => showToast('error', text),
};
