import { de } from '../../i18n/de';
import { toast } from '../../state/toasts';

/** Copies the short link; a toast says whether it worked. */
export async function copyLink(link: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(link);
    toast.success(de.info.linkCopied);
  } catch {
    toast.error(de.info.copyFailed);
  }
}

/** Opens the system's share menu; a cancelled menu is no error. */
export async function shareLink(link: string, title: string): Promise<void> {
  try {
    if (!navigator.share) throw new Error('no share');
    await navigator.share({ url: link, title });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') return;
    toast.error(de.info.shareFailed);
  }
}
