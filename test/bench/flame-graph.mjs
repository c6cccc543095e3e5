// A flame graph (PNG) of a V8 `.cpuprofile`, drawn by d3-flame-graph in Debian's headless
// chromium (puppeteer-core), the same browser the console's tests use.
//
//   node test/bench/flame-graph.mjs <file.cpuprofile> <out.png> [title]
//
// `npm run profile` calls it for each thread it profiled, over the load's window only (start-up
// and shutdown left out). Idle time is left out of the graph: a frame's width is its share of
// the thread's busy time. Frames are named `function file:line`, with the path shortened to the
// package or to `dist/…`.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';

const require = createRequire(import.meta.url);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// d3-flame-graph's UMD build reads d3 from the page's global `d3`: these d3 modules (its
// dependencies and theirs), each adding itself to that global, in an order where each comes
// after the modules it needs.
const D3_MODULES = ['d3-array', 'd3-color', 'd3-interpolate', 'd3-dispatch', 'd3-ease', 'd3-format', 'd3-time', 'd3-time-format', 'd3-hierarchy', 'd3-scale', 'd3-selection', 'd3-timer', 'd3-transition'];

/** Whether a browser to draw with is installed. */
export const canDrawFlameGraphs = () => existsSync(CHROMIUM);

/** A frame's script shortened to its package's path (`fastify/lib/reply.js`) or to `dist/…`. */
export const frameLocation = (url) => (url.includes('node_modules/') ? url.replace(/^.*node_modules\//, '') : url.replace(/^.*\/dist\//, 'dist/'));

/**
 * Each sampled node's own time in µs, counting only samples taken within [fromUs, untilUs] (V8's
 * monotonic clock, the one `process.hrtime` reads). A sample's frame was on the CPU until the
 * next sample, so it counts the time to the next one.
 */
export function selfTimes(profile, { fromUs = -Infinity, untilUs = Infinity } = {}) {
  const selfTime = new Map();
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    at += profile.timeDeltas[index] ?? 0;
    if (at < fromUs || at > untilUs) return;
    selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[index + 1] ?? 0));
  });
  return selfTime;
}

/**
 * The profile's call tree as d3-flame-graph's input (`{ name, value, children }`, `value` the
 * frame's own time in µs from `selfTimes` over the window), leaving out `(idle)`. Frames under
 * `minShare` of the busy time (narrower than a pixel) are folded into their caller's own time:
 * the browser need not lay out thousands of invisible frames, and every width stays true.
 */
export function callTree(profile, { fromUs = -Infinity, untilUs = Infinity, minShare = 0.0005 } = {}) {
  const selfTime = selfTimes(profile, { fromUs, untilUs });
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const isIdle = (node) => node.callFrame.functionName === '(idle)';
  const totals = new Map();
  const total = (node) => {
    let sum = totals.get(node.id);
    if (sum === undefined) {
      sum = (isIdle(node) ? 0 : (selfTime.get(node.id) ?? 0)) + (node.children ?? []).reduce((acc, id) => acc + total(nodes.get(id)), 0);
      totals.set(node.id, sum);
    }
    return sum;
  };
  const root = nodes.get(profile.nodes[0].id);
  const threshold = total(root) * minShare;
  const build = (node) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const where = frameLocation(url);
    let value = selfTime.get(node.id) ?? 0;
    const children = [];
    for (const child of (node.children ?? []).map((id) => nodes.get(id))) {
      if (isIdle(child) || total(child) === 0) continue;
      if (total(child) < threshold) value += total(child);
      else children.push(build(child));
    }
    return { name: where ? `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}` : functionName, value, children };
  };
  return build(root);
}

/** Draws `tree` (from `callTree`) as a PNG at `outputFile`. */
export async function drawFlameGraph(tree, outputFile, title) {
  const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1600, height: 900 });
    await page.setContent(`<!doctype html><html><head><meta charset="utf-8"><style>body { margin: 8px; font-family: sans-serif; } h1 { font-size: 16px; }</style></head><body><h1></h1><div id="chart"></div></body></html>`);
    // The packages export their browser builds under no subpath: found beside their entry points.
    // d3-flame-graph's build adds its own style sheet.
    const flameGraphDist = dirname(require.resolve('d3-flame-graph'));
    for (const module of D3_MODULES) await page.addScriptTag({ path: join(dirname(require.resolve(module)), `${module}.min.js`) });
    await page.addScriptTag({ path: join(flameGraphDist, 'd3-flamegraph.umd.min.js') });
    const height = await page.evaluate(
      (data, heading) => {
        document.querySelector('h1').textContent = heading;
        const chart = flamegraph.default().width(1580).cellHeight(16).minFrameSize(1).transitionDuration(0).sort(true).selfValue(true).title('');
        d3.select('#chart').datum(data).call(chart);
        return document.body.scrollHeight;
      },
      tree,
      title,
    );
    // Frames reach their width in a d3 transition, which runs on the next animation frames.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
    await page.setViewport({ width: 1600, height: Math.ceil(height) + 16 });
    writeFileSync(outputFile, await page.screenshot({ fullPage: true }));
  } finally {
    await browser.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [profileFile, outputFile, title = profileFile] = process.argv.slice(2);
  if (!profileFile || !outputFile) throw new Error('usage: node test/bench/flame-graph.mjs <file.cpuprofile> <out.png> [title]');
  await drawFlameGraph(callTree(JSON.parse(readFileSync(profileFile, 'utf8'))), outputFile, title);
  console.log(`flame graph: ${outputFile}`);
}
