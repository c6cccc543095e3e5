// Issue 35's targets for the mixed workload ("a checkpoint in a few milliseconds"), beside what a
// run of mixed-load.bench.mjs measured: medians of the rounds, with their min–max. A benchmark,
// not a timed test: the table says met or not, nothing fails on it.
//
// The costs are per answered request of the mixed traffic, of which checkpoints (customer, PSP,
// voucher redemption, refund, payout) are 62 % (mixed-workload.mjs's CLASSES): the issue's "per
// checkpoint" CPU target is compared with the cost of the average request, which a checkpoint,
// costing more than a lookup or a label, exceeds.

const KB = 1000;

/** Each target: what it says, how it reads the results, and whether a value meets it. */
const TARGETS = [
  {
    name: 'throughput ratio to the bare server (50 connections)',
    target: '≥ 0.2',
    value: (results) => results.ratio,
    meets: (median) => median >= 0.2,
    format: (n) => n.toFixed(3),
  },
  {
    name: 'p50 at the fixed rate, ÷ the bare server’s',
    target: '≤ 2×',
    value: (results) => results.fixedRate?.p50Ratio,
    meets: (median) => median <= 2,
    format: (n) => `${n.toFixed(1)}×`,
  },
  {
    name: 'p99 at the fixed rate, ÷ the bare server’s',
    target: '≤ 2×',
    value: (results) => results.fixedRate?.p99Ratio,
    meets: (median) => median <= 2,
    format: (n) => `${n.toFixed(1)}×`,
  },
  {
    name: 'bytes allocated a request (main thread’s V8 heap, 50 connections)',
    target: '≤ 100 KB',
    value: (results) => results.ringfence.heapBytesPerRequest,
    meets: (median) => median <= 100 * KB,
    format: (n) => `${Math.round(n / KB).toLocaleString('en')} KB`,
  },
  {
    name: 'main-thread CPU a request (50 connections)',
    target: '≤ 0.5 ms',
    value: (results) => results.ringfence.mainThreadCpuMsPerRequest,
    meets: (median) => median <= 0.5,
    format: (n) => `${n.toFixed(2)} ms`,
  },
];

const range = ({ median, min, max }, format) => `${format(median)} (${format(min)}–${format(max)})`;

/** Answers other than 2xx: the capacity rounds', the fixed-rate rounds' and the fresh bursts'. */
function answerTargets(results) {
  const non2xx = results.ringfence.non2xx + (results.fixedRate?.ringfence.non2xx ?? 0);
  const rows = [`| non-2xx answers (capacity and fixed-rate rounds) | 0 | ${non2xx.toLocaleString('en')} | ${non2xx === 0 ? 'met' : '**not met**'} |`];
  if (results.burst) {
    const runs = results.bursts.length;
    const all2xx = results.burst.ringfence.all2xx;
    rows.push(`| bursts of ${results.settings.burstSize} on a fresh server all 2xx | every burst | ${all2xx} of ${runs} | ${all2xx === runs ? 'met' : '**not met**'} |`);
  }
  return rows;
}

/** The markdown table of issue 35's targets against a run's `results`. */
export function targetLines(results) {
  const lines = ['Issue 35’s targets (medians of the rounds, min–max):', '', '| what | target | measured | |', '|---|---|---|---|'];
  for (const { name, target, value, meets, format } of TARGETS) {
    const measured = value(results);
    if (!measured) {
      lines.push(`| ${name} | ${target} | not measured | |`);
      continue;
    }
    lines.push(`| ${name} | ${target} | ${range(measured, format)} | ${meets(measured.median) ? 'met' : '**not met**'} |`);
  }
  lines.push(...answerTargets(results));
  return lines;
}
