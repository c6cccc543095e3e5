#!/usr/bin/env node
// The `ringfence` CLI: runs the compiled CLI app (build it with `npm run build`).
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const entry = join(__dirname, '..', 'dist', 'apps', 'cli', 'src', 'main.js');
if (!existsSync(entry)) {
  process.stderr.write('ringfence: the CLI is not built yet; run `npm run build` first\n');
  process.exit(1);
}
require(entry);
