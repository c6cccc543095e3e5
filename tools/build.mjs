// Compiles apps/ and libs/ into dist/ (incremental) and rewrites the @ringfence/* path aliases
// into relative requires so that `node dist/apps/<app>/src/main.js` runs without a loader.
import { execFileSync } from 'node:child_process';

const run = (bin, args) => execFileSync(process.execPath, [bin, ...args], { stdio: 'inherit' });
run('node_modules/typescript/bin/tsc', ['-p', 'tsconfig.build.json']);
run('node_modules/tsc-alias/dist/bin/index.js', ['-p', 'tsconfig.build.json']);
