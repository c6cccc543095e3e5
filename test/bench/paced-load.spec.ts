import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../deploy/support/repo-paths';

/**
 * test/bench/paced-load.mjs (an ES module, so run in a child process as the benches run it):
 * the arrival instants it offers, and that a request which found every connection busy is
 * timed from its arrival, not from when a connection freed.
 */
function run(script: string): unknown {
  const module = JSON.stringify(join(REPO_ROOT, 'test/bench/paced-load.mjs'));
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', `import * as paced from ${module};\n${script}`], { encoding: 'utf8' }));
}

describe('paced-load.mjs', () => {
  it('offers Poisson arrivals at the rate: the same instants for a seed, increasing, about rate × seconds of them', () => {
    const { count, again, increasing, otherSeed, meanGapMs, within } = run(`
      const times = paced.arrivalTimes({ rate: 300, seconds: 20, seed: 11 });
      const again = paced.arrivalTimes({ rate: 300, seconds: 20, seed: 11 });
      const other = paced.arrivalTimes({ rate: 300, seconds: 20, seed: 12 });
      process.stdout.write(JSON.stringify({
        count: times.length,
        again: JSON.stringify(again) === JSON.stringify(times),
        otherSeed: JSON.stringify(other) !== JSON.stringify(times),
        increasing: times.every((t, i) => i === 0 || t > times[i - 1]),
        within: times.every((t) => t >= 0 && t < 20000),
        meanGapMs: times[times.length - 1] / times.length,
      }));
    `) as { count: number; again: boolean; increasing: boolean; otherSeed: boolean; meanGapMs: number; within: boolean };
    expect({ again, increasing, otherSeed, within }).toEqual({ again: true, increasing: true, otherSeed: true, within: true });
    // 6,000 expected; a Poisson count's standard deviation is about 77.
    expect(count).toBeGreaterThan(5_700);
    expect(count).toBeLessThan(6_300);
    expect(meanGapMs).toBeGreaterThan(3.1);
    expect(meanGapMs).toBeLessThan(3.6);
  });

  it('sends at the arrivals without waiting for answers, and times a request that found no free connection from its arrival', () => {
    // One connection, and a service that answers nothing until every arrival has been sent: the
    // first request gets the connection, every later one waits for it.
    const outcome = run(`
      const held = [];
      let expected = Infinity;
      const send = (port, request) => {
        if (request.path === '/health/live') return Promise.resolve({ status: 200, body: '' });
        return new Promise((resolve) => {
          held.push(() => resolve({ status: 200, body: '{}' }));
          if (held.length === expected) setTimeout(() => held.forEach((answer) => answer()), 50);
        });
      };
      expected = paced.arrivalTimes({ rate: 400, seconds: 0.1, seed: 3 }).length;
      const latencies = [];
      const outcome = await paced.pacedLoad({ port: 0, rate: 400, seconds: 0.1, connections: 1, seed: 3, next: () => ({ method: 'POST', path: '/x', headers: {}, body: '{}' }), send,
        onAnswer: (request, status, body, ms) => latencies.push(ms) });
      process.stdout.write(JSON.stringify({ ...outcome, expected, shortest: Math.min(...latencies), longest: Math.max(...latencies) }));
    `) as { sent: number; answered: number; errors: number; waitedForConnection: number; expected: number; shortest: number; longest: number };
    expect(outcome.expected).toBeGreaterThan(20);
    expect(outcome).toMatchObject({ sent: outcome.expected, answered: outcome.expected, errors: 0, waitedForConnection: outcome.expected - 1 });
    // Every answer came 50 ms after the last arrival (a timer may fire a millisecond early), and
    // the first arrival waited longest, by about the time from it to the last arrival (the
    // seed's instants span most of the 100 ms).
    expect(outcome.shortest).toBeGreaterThanOrEqual(45);
    expect(outcome.longest).toBeGreaterThan(outcome.shortest + 50);
  });
});
