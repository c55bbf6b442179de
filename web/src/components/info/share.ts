import { msg } from '../../i18n/current';
import { toast } from '../../state/toasts';

/** Copies the short link; a toast says whether it worked. */
export async function copyLink(link: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(link);
    toast.success(msg.info.linkCopied);
  } catch {
    toast.error(msg.info.copyFailed);
  }
}

/** Whether the browser has a system share menu (phones do; desktop Chromium on Linux does not). */
export function canShare(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.share === 'function';
}

/**
 * Opens the system's share menu; a cancelled menu is no error. Without a share menu the link is
 * copied instead (the button is only offered where the menu exists).
 */
export async function shareLink(link: string, title: string): Promise<void> {
  if (!canShare()) return copyLink(link);
  try {
    await navigator.share({ url: link, title });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') return;
    toast.error(msg.info.shareFailed);
  }
}
