import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../deploy/support/repo-paths';

interface Frame {
  name: string;
  value: number;
  children: Frame[];
}

/**
 * `callTree` of test/bench/flame-graph.mjs (an ES module, so run in a child process as
 * `npm run profile` runs it) on a profile written by hand: which samples count, and that every
 * width stays true when idle time and narrow frames are left out.
 */
function callTree(profile: object, options: object): Frame {
  const script = `import(${JSON.stringify(join(REPO_ROOT, 'test/bench/flame-graph.mjs'))}).then(({ callTree }) => process.stdout.write(JSON.stringify(callTree(${JSON.stringify(profile)}, ${JSON.stringify(options)}))))`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as Frame;
}

const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
  id,
  callFrame: { functionName, scriptId: '1', url, lineNumber: 9, columnNumber: 0 },
  hitCount: 0,
  children,
});

// (root) → handle (dist) → [validate (node_modules), rare]; (root) → (idle)
const PROFILE = {
  nodes: [
    frame(1, '(root)', '', [2, 5]),
    frame(2, 'handle', 'file:///repo/dist/libs/x/src/handler.js', [3, 4]),
    frame(3, 'validate', 'file:///repo/node_modules/class-validator/cjs/index.js'),
    frame(4, 'rare', 'file:///repo/dist/libs/x/src/rare.js'),
    frame(5, '(idle)', ''),
  ],
  startTime: 1_000,
  // Sample i is taken at startTime + the sum of the deltas up to it; it lasts until the next.
  samples: [3, 3, 2, 5, 4, 3, 3],
  timeDeltas: [100, 100, 100, 100, 100, 100, 100],
};

describe('flame-graph.mjs callTree', () => {
  it('names frames by function and shortened path, drops idle time, and counts each sample until the next', () => {
    const tree = callTree(PROFILE, { minShare: 0 });
    expect(tree.name).toBe('(root)');
    expect(tree.children.map((child) => child.name)).toEqual(['handle dist/libs/x/src/handler.js:10']);
    const handle = tree.children[0];
    // The last sample has no next one, so it counts for nothing.
    expect(handle.value).toBe(100);
    expect(handle.children).toEqual([
      { name: 'validate class-validator/cjs/index.js:10', value: 300, children: [] },
      { name: 'rare dist/libs/x/src/rare.js:10', value: 100, children: [] },
    ]);
  });

  it('counts only the samples inside the window', () => {
    // Samples at 1,100 … 1,700: the window [1,250, 1,450] holds those at 1,300 (handle) and 1,400 (idle).
    const tree = callTree(PROFILE, { fromUs: 1_250, untilUs: 1_450, minShare: 0 });
    expect(tree.children).toEqual([{ name: 'handle dist/libs/x/src/handler.js:10', value: 100, children: [] }]);
  });

  it("folds frames under the minimum share into their caller's own time", () => {
    // Busy time 500: `rare` (100) is under 25 %, `validate` (300) is not.
    const handle = callTree(PROFILE, { minShare: 0.25 }).children[0];
    expect(handle.value).toBe(200);
    expect(handle.children.map((child) => child.name)).toEqual(['validate class-validator/cjs/index.js:10']);
  });
});
