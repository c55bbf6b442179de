import { useEffect, useRef, useState } from 'react';

/** The copy confirmation ('Kopiert!' or 'Kopieren fehlgeschlagen!') shows for 3 s. */
export const COPY_CONFIRM_MS = 3000;

export type CopyState = 'idle' | 'copied' | 'failed';

/** Copies text to the clipboard; the state says 'copied' or 'failed' for 3 s, then 'idle' again. */
export function useCopy(): [CopyState, (text: string) => Promise<void>] {
  const [state, setState] = useState<CopyState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  async function copy(text: string) {
    let next: CopyState = 'copied';
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
    } catch {
      next = 'failed';
    }
    setState(next);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), COPY_CONFIRM_MS);
  }
  return [state, copy];
}

/** What a copy button says: 'Kopiert!' or 'Kopieren fehlgeschlagen!' for a while, else its label. */
export function copyLabel(
  state: CopyState,
  texts: { readonly copied: string; readonly copyFailed: string },
  label: string,
): string {
  return state === 'copied' ? texts.copied : state === 'failed' ? texts.copyFailed : label;
}
