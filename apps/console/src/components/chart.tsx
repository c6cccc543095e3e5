import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

/** Chart height in CSS pixels (the plot and its axes; the legend is below). */
const CHART_HEIGHT = 240;

/**
 * One uPlot chart (canvas, bundled: nothing is loaded from elsewhere), sized to its container's
 * width and redrawn when the data change or the window is resized. uPlot styles its elements
 * through the CSSOM only, which the console's Content-Security-Policy allows; its stylesheet is
 * part of app.css. `label` names the chart for screen readers; the page shows its numbers too.
 */
export function Chart({ options, data, label }: { options: Omit<uPlot.Options, 'width' | 'height'>; data: uPlot.AlignedData; label: string }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = container.current;
    if (!element) return undefined;
    const width = () => Math.max(280, element.clientWidth);
    const chart = new uPlot({ ...options, width: width(), height: CHART_HEIGHT }, data, element);
    const resized = () => chart.setSize({ width: width(), height: CHART_HEIGHT });
    window.addEventListener('resize', resized);
    return () => {
      window.removeEventListener('resize', resized);
      chart.destroy();
    };
  }, [options, data]);
  return <div class="chart" ref={container} role="img" aria-label={label} />;
}

/**
 * Stacked bars: uPlot draws series as given, so each series is the running sum of its own and
 * the ones after it (bars from zero, the tallest first, each covered by the next), while the
 * legend shows each series' own count.
 */
export function stacked(xs: number[], layers: Array<{ label: string; color: string; values: number[] }>): { data: uPlot.AlignedData; series: uPlot.Series[] } {
  const sums = layers.map((_, index) => xs.map((__, at) => layers.slice(index).reduce((sum, layer) => sum + layer.values[at], 0)));
  return {
    data: [xs, ...sums],
    series: [
      {},
      ...layers.map((layer, index) => ({
        label: layer.label,
        stroke: layer.color,
        fill: layer.color,
        width: 0,
        paths: uPlot.paths.bars?.({ size: [0.8, 64] }),
        points: { show: false },
        value: (_self: uPlot, _raw: number, _series: number, at: number | null) => (at === null ? '—' : layers[index].values[at]),
      })),
    ],
  };
}

/** Bars of one series on a numeric or time x axis. */
export const barPaths = () => uPlot.paths.bars?.({ size: [0.8, 64] });
