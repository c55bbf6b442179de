import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { locale } from '../../../i18n/current';
import {
  bucketLabel,
  legendSpan,
  legendValue,
  type StatisticsAnswer,
} from '../../../lib/statistics';
import { useT } from '../../../i18n/context';

/** The figures counted per range and bucket. */
export type Figure = 'visits' | 'visitors' | 'bots';

/** Short tick labels: `14:00` by the hour, `23.11.` by the day, `Nov. 26` by the month. */
function axisLabel(ms: number, granularity: StatisticsAnswer['granularity']): string {
  const options: Intl.DateTimeFormatOptions =
    granularity === 'hour'
      ? { hour: '2-digit', minute: '2-digit' }
      : granularity === 'day'
        ? { day: '2-digit', month: '2-digit' }
        : { month: 'short', year: '2-digit' };
  return new Intl.DateTimeFormat(locale(), options).format(new Date(ms));
}

/** Reads a Bootstrap colour of the current theme (so the chart follows light and dark mode). */
function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}

const ALL_FIGURES: readonly Figure[] = ['visits', 'visitors', 'bots'];

/**
 * The time series as a uPlot line chart (visits, visitors, bots). Decorative for screen readers:
 * the same numbers are in the table below it. The legend shows the totals until the pointer
 * points at a bucket.
 */
export function StatsChart({
  data,
  figures = ALL_FIGURES,
}: {
  data: StatisticsAnswer;
  /** The lines drawn (all by default). */
  figures?: readonly Figure[];
}) {
  const { msg } = useT();
  const box = useRef<HTMLDivElement>(null);
  // By value: a caller's new array of the same figures draws nothing anew.
  const shown = figures.join(',');
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const text = cssVar('--bs-body-color', '#212529');
    const grid = cssVar('--bs-border-color', '#dee2e6');
    const axis = {
      stroke: text,
      grid: { stroke: grid, width: 1 },
      ticks: { stroke: grid, width: 1 },
    };
    const xs = data.series.map((b) => Date.parse(b.start) / 1000);
    const every: Array<{ figure: Figure; series: uPlot.Series }> = [
      {
        figure: 'visits',
        series: {
          label: msg.stats.visits,
          stroke: cssVar('--bs-primary', '#0d6efd'),
          width: 2,
          value: (_u, v, _s, idx) => legendValue(data.total.visits, v, idx),
        },
      },
      {
        figure: 'visitors',
        series: {
          label: msg.stats.visitors,
          stroke: cssVar('--bs-success', '#198754'),
          width: 2,
          value: (_u, v, _s, idx) => legendValue(data.total.visitors, v, idx),
        },
      },
      {
        figure: 'bots',
        series: {
          label: msg.stats.bots,
          value: (_u, v, _s, idx) => legendValue(data.total.bots, v, idx),
          stroke: cssVar('--bs-secondary', '#6c757d'),
          width: 1,
          dash: [4, 4],
        },
      },
    ];
    const lines = every.filter((l) => shown.split(',').includes(l.figure));
    const plot = new uPlot(
      {
        width: Math.max(el.clientWidth, 280),
        height: 240,
        legend: { show: true },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [
          {
            ...axis,
            values: (_u, ticks) => ticks.map((t) => axisLabel(t * 1000, data.granularity)),
          },
          { ...axis, size: 48 },
        ],
        series: [
          {
            label: msg.stats.start,
            value: (_u, v, _s, idx) =>
              idx == null || v == null
                ? legendSpan(data)
                : bucketLabel(new Date(v * 1000).toISOString(), data.granularity),
          },
          ...lines.map((l) => l.series),
        ],
      },
      [xs, ...lines.map((l) => data.series.map((b) => b[l.figure]))],
      el,
    );
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(el.clientWidth, 280), height: 240 }),
    );
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [data, msg, shown]);
  return (
    <div ref={box} className="stats-chart mb-3" aria-hidden="true" data-testid="stats-chart" />
  );
}
