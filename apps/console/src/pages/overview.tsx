import { useMemo, useState } from 'preact/hooks';
import type uPlot from 'uplot';
import { type Api, dataOf } from '../api';
import { Chart, barPaths, stacked } from '../components/chart';
import { ErrorNotice, Section, useLoad } from '../components/common';
import { formatMoney, formatTime } from '../format';

/** `GET /v2/stats/overview`'s data (docs/api.md "Overview"). */
interface Overview {
  from: number;
  to: number;
  bucket: 'hour' | 'day' | 'week';
  decisions: Array<{ at: number; total: number; ALLOW: number; REVIEW: number; PREVENT: number; bySource: Record<string, number> }>;
  total: number;
  reviewRate: number;
  fraud: { caught: FraudOutcome; missed: FraudOutcome; fraudSubjects: number; disputedTransactions: number; truncated: boolean };
  rules: Array<{ ruleId: number; name: string; checkpoint: string; hits: number; rate: number }>;
  scores: { bins: Array<{ from: number; to: number; count: number }> };
}
interface FraudOutcome {
  decisions: number;
  amounts: Record<string, number>;
}

const HOUR = 3_600_000;
/** The windows offered: the data set's whole period (the server's default), or the last hours before now. */
const WINDOWS = [
  { value: 'period', label: 'whole data period', hours: 0 },
  { value: '24h', label: 'last 24 hours', hours: 24 },
  { value: '7d', label: 'last 7 days', hours: 7 * 24 },
  { value: '30d', label: 'last 30 days', hours: 30 * 24 },
  { value: '365d', label: 'last 365 days', hours: 365 * 24 },
] as const;
const BUCKETS = [
  { value: '', label: 'automatic' },
  { value: 'hour', label: 'hour' },
  { value: 'day', label: 'day' },
  { value: 'week', label: 'week' },
] as const;

// Canvas colours: the console's action colours (app.css), and a palette for sources.
const ACTION_COLOURS = { ALLOW: '#1a6b35', REVIEW: '#8a5300', PREVENT: '#b3261e' } as const;
const SOURCE_COLOURS = ['#0b4f9c', '#8a5300', '#1a6b35', '#6f42c1', '#b3261e', '#4d5662', '#00838f', '#ad1457'];

const percent = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;
const amountsText = (amounts: Record<string, number>) =>
  Object.keys(amounts).length === 0 ? '—' : Object.entries(amounts).map(([currency, amount]) => formatMoney(amount, currency)).join(', ');

/** The account's decisions over time, review rate, fraud caught and missed, rule hits, score distribution. */
export function OverviewPage({ api }: { api: Api }) {
  const [windowChoice, setWindowChoice] = useState<(typeof WINDOWS)[number]['value']>('period');
  const [bucket, setBucket] = useState<(typeof BUCKETS)[number]['value']>('');
  const overview = useLoad(async () => {
    const hours = WINDOWS.find((option) => option.value === windowChoice)?.hours ?? 0;
    const to = Date.now();
    const range = hours === 0 ? {} : { from: to - hours * HOUR, to };
    return dataOf(await api.get<{ data: Overview }>('/v2/stats/overview', { ...range, bucket }));
  }, `${windowChoice}|${bucket}`);

  return (
    <main id="main" tabIndex={-1}>
      <h1>Overview</h1>
      <div class="toolbar">
        <label>
          Window{' '}
          <select value={windowChoice} onChange={(event) => setWindowChoice(event.currentTarget.value as typeof windowChoice)}>
            {WINDOWS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Bucket{' '}
          <select value={bucket} onChange={(event) => setBucket(event.currentTarget.value as typeof bucket)}>
            {BUCKETS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorNotice error={overview.error} />
      {overview.data ? <OverviewCharts overview={overview.data} /> : overview.loading ? <p class="muted">Loading…</p> : null}
    </main>
  );
}

function OverviewCharts({ overview }: { overview: Overview }) {
  const { fraud } = overview;
  return (
    <>
      <p class="muted">
        {formatTime(overview.from)} to {formatTime(overview.to)} (your local time), per {overview.bucket}: {overview.total} decisions, review rate {percent(overview.reviewRate)}.
      </p>
      {overview.total === 0 ? <p class="empty">No decision in this window.</p> : null}
      <div class="overview-grid">
        <Section title="Decisions by action" id="overview-actions">
          <ActionsChart overview={overview} />
        </Section>
        <Section title="Decisions by source" id="overview-sources">
          <SourcesChart overview={overview} />
        </Section>
        <Section title="Review rate" id="overview-review-rate">
          <ReviewRateChart overview={overview} />
        </Section>
        <Section title="Fraud caught and missed" id="overview-fraud">
          <FraudChart fraud={fraud} />
          <table>
            <thead>
              <tr>
                <th scope="col" />
                <th scope="col">Decisions</th>
                <th scope="col">Amount</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">Caught (PREVENT or REVIEW)</th>
                <td>{fraud.caught.decisions}</td>
                <td>{amountsText(fraud.caught.amounts)}</td>
              </tr>
              <tr>
                <th scope="row">Missed (ALLOW)</th>
                <td>{fraud.missed.decisions}</td>
                <td>{amountsText(fraud.missed.amounts)}</td>
              </tr>
            </tbody>
          </table>
          <p class="muted">
            Known fraud: {fraud.fraudSubjects} subjects labelled FRAUDSTER, {fraud.disputedTransactions} disputed payments
            {fraud.truncated ? ' (more are known than the overview counts)' : ''}.
          </p>
        </Section>
        <Section title="Model score distribution" id="overview-scores">
          <ScoresChart overview={overview} />
        </Section>
        <Section title="Rule hits" id="overview-rules">
          <RuleHits rules={overview.rules} />
        </Section>
      </div>
    </>
  );
}

/** A y axis of counts: whole-number ticks only. */
const COUNT_AXIS: uPlot.Axis = { label: 'decisions', incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000] };

/** The x values and options every time chart shares: epoch ms, shown in the browser's time zone. */
function timeOptions(series: uPlot.Series[], yAxis: uPlot.Axis = COUNT_AXIS): Omit<uPlot.Options, 'width' | 'height'> {
  return { ms: 1, series, axes: [{}, yAxis], scales: { x: { time: true } }, legend: { live: true } };
}

function ActionsChart({ overview }: { overview: Overview }) {
  const { options, data } = useMemo(() => {
    const xs = overview.decisions.map((bucket) => bucket.at);
    const layers = (['PREVENT', 'REVIEW', 'ALLOW'] as const).map((action) => ({ label: action, color: ACTION_COLOURS[action], values: overview.decisions.map((bucket) => bucket[action]) }));
    const chart = stacked(xs, layers);
    return { options: timeOptions(chart.series), data: chart.data };
  }, [overview]);
  return <Chart options={options} data={data} label={`Decisions per ${overview.bucket}, stacked by action`} />;
}

function SourcesChart({ overview }: { overview: Overview }) {
  const { options, data } = useMemo(() => {
    const xs = overview.decisions.map((bucket) => bucket.at);
    const sources = [...new Set(overview.decisions.flatMap((bucket) => Object.keys(bucket.bySource)))].sort();
    const layers = sources.map((source, index) => ({
      label: source,
      color: SOURCE_COLOURS[index % SOURCE_COLOURS.length],
      values: overview.decisions.map((bucket) => bucket.bySource[source] ?? 0),
    }));
    const chart = stacked(xs, layers);
    return { options: timeOptions(chart.series), data: chart.data };
  }, [overview]);
  return <Chart options={options} data={data} label={`Decisions per ${overview.bucket}, stacked by deciding source`} />;
}

function ReviewRateChart({ overview }: { overview: Overview }) {
  const { options, data } = useMemo(() => {
    const xs = overview.decisions.map((bucket) => bucket.at);
    // A bucket without decisions has no rate: a gap, not 0 %.
    const rates = overview.decisions.map((bucket) => (bucket.total === 0 ? null : (bucket.REVIEW / bucket.total) * 100));
    const series: uPlot.Series[] = [{}, { label: 'review rate', stroke: ACTION_COLOURS.REVIEW, width: 2, value: (_self, raw) => (raw === null ? '—' : `${raw.toFixed(1)} %`) }];
    return { options: { ...timeOptions(series, { label: '% of decisions' }), scales: { x: { time: true }, y: { range: [0, 100] as [number, number] } } }, data: [xs, rates] as uPlot.AlignedData };
  }, [overview]);
  return <Chart options={options} data={data} label={`Share of decisions answered REVIEW per ${overview.bucket}; ${percent(overview.reviewRate)} over the window`} />;
}

function FraudChart({ fraud }: { fraud: Overview['fraud'] }) {
  const { options, data } = useMemo(() => {
    const names = ['Caught', 'Missed'];
    const options: Omit<uPlot.Options, 'width' | 'height'> = {
      series: [{}, { label: 'decisions on known fraud', stroke: ACTION_COLOURS.PREVENT, fill: ACTION_COLOURS.PREVENT, paths: barPaths(), points: { show: false } }],
      scales: { x: { time: false, range: [-0.5, 1.5] }, y: { range: (_self, _min, max) => [0, Math.max(1, max)] } },
      axes: [{ values: (_self, ticks) => ticks.map((tick) => names[tick] ?? ''), splits: () => [0, 1] }, COUNT_AXIS],
      legend: { show: false },
    };
    return { options, data: [[0, 1], [fraud.caught.decisions, fraud.missed.decisions]] as uPlot.AlignedData };
  }, [fraud]);
  return <Chart options={options} data={data} label={`Decisions on known fraud: ${fraud.caught.decisions} caught, ${fraud.missed.decisions} missed`} />;
}

function ScoresChart({ overview }: { overview: Overview }) {
  const { options, data } = useMemo(() => {
    const bins = overview.scores.bins;
    const options: Omit<uPlot.Options, 'width' | 'height'> = {
      series: [{ label: 'score', value: (_self, raw) => (raw === null ? '—' : `${raw - 5}–${raw + 5}`) }, { label: 'decisions', stroke: '#0b4f9c', fill: '#0b4f9c', paths: barPaths(), points: { show: false } }],
      scales: { x: { time: false, range: [-5, 105] }, y: { range: (_self, _min, max) => [0, Math.max(1, max)] } },
      axes: [{ label: 'model score', splits: () => [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100] }, COUNT_AXIS],
    };
    return { options, data: [bins.map((bin) => bin.from + 5), bins.map((bin) => bin.count)] as uPlot.AlignedData };
  }, [overview]);
  const scored = overview.scores.bins.reduce((sum, bin) => sum + bin.count, 0);
  return <Chart options={options} data={data} label={`Model scores of ${scored} decisions in bins of 10 from 0 to 100`} />;
}

function RuleHits({ rules }: { rules: Overview['rules'] }) {
  if (rules.length === 0) return <p class="empty">No rule triggered in this window.</p>;
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Rule</th>
          <th scope="col">Checkpoint</th>
          <th scope="col">Hits</th>
          <th scope="col">Hit rate</th>
        </tr>
      </thead>
      <tbody>
        {rules.map((rule) => (
          <tr key={`${rule.checkpoint}/${rule.ruleId}`}>
            <td>
              <a href={`#/rules/${rule.ruleId}`}>{rule.name || `rule ${rule.ruleId}`}</a>
            </td>
            <td>{rule.checkpoint}</td>
            <td>{rule.hits}</td>
            <td>
              <meter min={0} max={1} value={rule.rate} aria-label={`hit rate of ${rule.name}`} /> {percent(rule.rate)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
