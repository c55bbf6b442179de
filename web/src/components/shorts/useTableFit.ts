import { useLayoutEffect, useState } from 'react';
import { flushSync } from 'react-dom';

const same = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((x, i) => Object.is(x, b[i]));

/**
 * Whether a table fits its box without a horizontal scroll. The box (`attach` is its `ref`) is
 * always rendered and holds either the table or the list's other layout (cards). While the table
 * is shown, a resize observer compares its width with the box's; a table wider than the box
 * records the width it needs and the caller switches to the other layout before the browser
 * paints. Once the box is that wide again, or the content (`content`: rows, columns, language)
 * changed, the table is tried again.
 */
export function useTableFit(content: readonly unknown[]) {
  const [box, setBox] = useState<HTMLElement | null>(null);
  const [width, setWidth] = useState<number | null>(null);
  /** The width the table needed when it last did not fit (null: unknown, try the table). */
  const [need, setNeed] = useState<number | null>(null);
  const [measuredFor, setMeasuredFor] = useState(content);
  if (!same(measuredFor, content)) {
    // New rows or columns: the table may fit now.
    setMeasuredFor(content);
    setNeed(null);
  }
  const fits = need === null || width === null || width >= need;

  // Observes the box (window resizes, a sidebar, zoom) and, while shown, the table. The observer
  // reports after layout and before paint; flushSync lets the switch happen in the same frame.
  useLayoutEffect(() => {
    if (!box || typeof ResizeObserver !== 'function') return; // jsdom: always the table
    const table = fits ? box.querySelector('table') : null;
    const observer = new ResizeObserver(() => {
      const room = box.clientWidth;
      const px = table ? Math.ceil(table.getBoundingClientRect().width) : 0;
      flushSync(() => {
        setWidth(room);
        if (px > room + 1) setNeed(px);
      });
    });
    observer.observe(box);
    if (table) observer.observe(table);
    return () => observer.disconnect();
  }, [box, fits]);

  return { attach: setBox as (el: HTMLElement | null) => void, fits };
}
