import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from '../deploy/support/repo-paths';

/**
 * `npm start` runs `tools/build.mjs --if-stale`: the real script, in a project of a few files
 * whose compilers are stand-ins that only record that they ran (what is under test is when the
 * script builds, not TypeScript).
 */
describe('tools/build.mjs --if-stale', () => {
  let project: string;

  const write = (path: string, text = '') => {
    mkdirSync(dirname(join(project, path)), { recursive: true });
    writeFileSync(join(project, path), text);
  };
  /** Sets a file's time `seconds` from now (negative: ago), as saving it then would. */
  const touch = (path: string, seconds: number) => {
    const at = new Date(Date.now() + seconds * 1000);
    utimesSync(join(project, path), at, at);
  };
  const RECORD = "require('node:fs').appendFileSync('compiled.log', process.argv[1] + '\\n');";
  const start = () => {
    rmSync(join(project, 'compiled.log'), { force: true });
    const output = execFileSync(process.execPath, ['tools/build.mjs', '--if-stale'], { cwd: project, encoding: 'utf8' });
    return { built: existsSync(join(project, 'compiled.log')), output };
  };

  beforeEach(() => {
    project = mkdtempSync(join(tmpdir(), 'ringfence-build-'));
    mkdirSync(join(project, 'tools'));
    copyFileSync(join(REPO_ROOT, 'tools/build.mjs'), join(project, 'tools/build.mjs'));
    write('node_modules/typescript/bin/tsc', RECORD);
    write('node_modules/tsc-alias/dist/bin/index.js', RECORD);
    for (const file of ['tsconfig.base.json', 'tsconfig.build.json', 'package-lock.json', 'docs/api.md']) write(file, '{}');
    write('apps/standalone/src/main.ts', 'export {};');
    // The console's bundler, a stand-in that records its run like the compilers'.
    write('apps/console/bundle.mjs', "import { appendFileSync } from 'node:fs'; export async function bundleConsole(outdir) { appendFileSync('compiled.log', `console ${outdir}\\n`); }");
    write('apps/console/src/app.css', 'body {}');
    write('apps/console/src/main.tsx', 'export {};');
    // The web SDK's bundler, likewise; its sample page is an input too.
    write('libs/web-sdk/bundle.mjs', "import { appendFileSync } from 'node:fs'; export async function bundleWebSdk(outdir) { appendFileSync('compiled.log', `web-sdk ${outdir}\\n`); }");
    write('libs/web-sdk/sample/sample-checkout.html', '<!doctype html>');
    write('libs/graph-engine/src/graph-index.ts', 'export {};');
    write('libs/graph-engine/src/graph-index.spec.ts', 'export {};');
    write('libs/graph-engine/src/test-support/reference-graph.ts', 'export {};');
    write('libs/services/scoring/default-models/pspBeforeAuth.json', '{}');
    // Every input saved a minute ago, before any build.
    for (const file of ['tsconfig.base.json', 'tsconfig.build.json', 'package-lock.json', 'docs/api.md', 'tools/build.mjs', 'apps/standalone/src/main.ts', 'apps/console/bundle.mjs', 'apps/console/src/app.css', 'apps/console/src/main.tsx', 'libs/web-sdk/bundle.mjs', 'libs/web-sdk/sample/sample-checkout.html', 'libs/graph-engine/src/graph-index.ts', 'libs/graph-engine/src/graph-index.spec.ts', 'libs/graph-engine/src/test-support/reference-graph.ts', 'libs/services/scoring/default-models/pspBeforeAuth.json']) touch(file, -60);
  });

  afterEach(() => rmSync(project, { recursive: true, force: true }));

  it('builds without a previous build, then starts from the built output while nothing changed', () => {
    expect(start().built).toBe(true);
    expect(existsSync(join(project, 'dist/docs/api.md'))).toBe(true);
    expect(existsSync(join(project, 'dist/libs/services/scoring/default-models/pspBeforeAuth.json'))).toBe(true);
    expect(readFileSync(join(project, 'compiled.log'), 'utf8')).toContain('console dist/console');
    expect(readFileSync(join(project, 'compiled.log'), 'utf8')).toContain('web-sdk dist/client');

    const again = start();
    expect(again.built).toBe(false);
    expect(again.output).toContain('dist/ is current');
  });

  it.each(['libs/graph-engine/src/graph-index.ts', 'apps/standalone/src/main.ts', 'apps/console/src/app.css', 'apps/console/src/main.tsx', 'apps/console/bundle.mjs', 'libs/web-sdk/bundle.mjs', 'libs/web-sdk/sample/sample-checkout.html', 'package-lock.json', 'tsconfig.base.json', 'docs/api.md', 'libs/services/scoring/default-models/pspBeforeAuth.json'])('builds again after %s changed', (input) => {
    start();
    touch('dist/.build-stamp', -30);
    touch(input, -10);
    expect(start().built).toBe(true);
    expect(start().built).toBe(false);
  });

  it('builds again when a file was saved during the last build', () => {
    start();
    touch('apps/standalone/src/main.ts', 1);
    expect(start().built).toBe(true);
  });

  it('does not build for a change to a test or its support, which the build does not compile', () => {
    start();
    touch('dist/.build-stamp', -30);
    touch('libs/graph-engine/src/graph-index.spec.ts', -10);
    touch('libs/graph-engine/src/test-support/reference-graph.ts', -10);
    expect(start().built).toBe(false);
  });
});
