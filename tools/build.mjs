// Compiles apps/ and libs/ into dist/ (incremental) and rewrites the @ringfence/* path aliases
// into relative requires so that `node dist/apps/<app>/src/main.js` runs without a loader; then
// copies the documents the apps serve (docs/api.md, at /docs/api) into dist/docs/.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';

const run = (bin, args) => execFileSync(process.execPath, [bin, ...args], { stdio: 'inherit' });
run('node_modules/typescript/bin/tsc', ['-p', 'tsconfig.build.json']);
run('node_modules/tsc-alias/dist/bin/index.js', ['-p', 'tsconfig.build.json']);
mkdirSync('dist/docs', { recursive: true });
copyFileSync('docs/api.md', 'dist/docs/api.md');
