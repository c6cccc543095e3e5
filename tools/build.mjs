// Compiles apps/ and libs/ into dist/ (incremental) and rewrites the @ringfence/* path aliases
// into relative requires so that `node dist/apps/<app>/src/main.js` runs without a loader; then
// copies the documents the apps serve (docs/api.md, at /docs/api) into dist/docs/ and the shipped
// default models beside the scoring service, bundles the web console (apps/console, served at
// /console) into dist/console/ and the web SDK with its sample page (libs/web-sdk, served at
// /client) into dist/client/.
//
// `--if-stale` (npm start) builds only when an input changed since the last build: a source
// file the build compiles, a console source (any file apps/console bundles), a shipped default
// model, a tsconfig, the lockfile, docs/api.md or this script is newer than dist/.build-stamp,
// whose time is when that build started (a file saved during a build is newer, so the next start
// builds again).
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const STAMP = 'dist/.build-stamp';
const INPUT_FILES = ['tsconfig.base.json', 'tsconfig.build.json', 'package-lock.json', 'docs/api.md', 'tools/build.mjs'];
const SOURCE_DIRECTORIES = ['apps', 'libs'];
// As tsconfig.build.json excludes them: tests and their support are not built.
const isBuiltSource = (name) => name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.int-spec.ts');
// The console is bundled by esbuild, not compiled by tsc: its TSX, styles, page and bundle script.
const CONSOLE_DIRECTORY = 'apps/console';
const DEFAULT_MODELS_DIRECTORY = 'libs/services/scoring/default-models';
const isConsoleSource = (name) => /\.(tsx?|css|html|mjs)$/.test(name);
// The web SDK is bundled by esbuild too (its TypeScript is already a built source above): its
// bundle script and the sample checkout page it ships with.
const WEB_SDK_DIRECTORY = 'libs/web-sdk';
const isWebSdkSource = (name) => /\.(css|html|js|mjs)$/.test(name);

function newestSourceMillis(directory, isSource = isBuiltSource) {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'test-support') newest = Math.max(newest, newestSourceMillis(join(directory, entry.name), isSource));
    } else if (isSource(entry.name)) {
      newest = Math.max(newest, statSync(join(directory, entry.name)).mtimeMs);
    }
  }
  return newest;
}

function builtAt() {
  try {
    return statSync(STAMP).mtimeMs;
  } catch {
    return undefined;
  }
}

const startedAt = new Date();
if (process.argv.includes('--if-stale')) {
  const stamp = builtAt();
  const newestInput = Math.max(...INPUT_FILES.map((file) => statSync(file).mtimeMs), ...SOURCE_DIRECTORIES.map((directory) => newestSourceMillis(directory)), newestSourceMillis(CONSOLE_DIRECTORY, isConsoleSource), newestSourceMillis(WEB_SDK_DIRECTORY, isWebSdkSource), newestSourceMillis(DEFAULT_MODELS_DIRECTORY, (name) => name.endsWith('.json')));
  if (stamp !== undefined && newestInput <= stamp) {
    console.log(`dist/ is current (built ${new Date(stamp).toISOString()}, nothing changed since); \`npm run build\` builds anyway`);
    process.exit(0);
  }
}

const run = (bin, args) => execFileSync(process.execPath, [bin, ...args], { stdio: 'inherit' });
run('node_modules/typescript/bin/tsc', ['-p', 'tsconfig.build.json']);
run('node_modules/tsc-alias/dist/bin/index.js', ['-p', 'tsconfig.build.json']);
mkdirSync('dist/docs', { recursive: true });
copyFileSync('docs/api.md', 'dist/docs/api.md');
// The shipped default models, beside the compiled scoring service that reads them.
cpSync(DEFAULT_MODELS_DIRECTORY, join('dist', DEFAULT_MODELS_DIRECTORY), { recursive: true });
// Imported here, not at the top: esbuild is a dev dependency, needed only when building.
const { bundleConsole } = await import(`../${CONSOLE_DIRECTORY}/bundle.mjs`);
await bundleConsole('dist/console');
const { bundleWebSdk } = await import(`../${WEB_SDK_DIRECTORY}/bundle.mjs`);
await bundleWebSdk('dist/client');
writeFileSync(STAMP, `${startedAt.toISOString()}\n`);
utimesSync(STAMP, startedAt, startedAt);
