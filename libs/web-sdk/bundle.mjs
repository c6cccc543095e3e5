// Bundles the web SDK (ADR-0015) into one directory the gateway serves at /client:
// ringfence.js (a classic script defining the global `Ringfence`), ringfence.mjs (the same as
// an ES module), and the sample checkout page with its script. Called by tools/build.mjs.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = dirname(fileURLToPath(import.meta.url));
const SAMPLE_FILES = ['sample-checkout.html', 'sample-checkout.js', 'sample-checkout.css'];

/** Writes the bundle into `outdir` (replacing what was there), e.g. `dist/client`. */
export async function bundleWebSdk(outdir) {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const shared = {
    entryPoints: [join(ROOT, 'src', 'index.ts')],
    bundle: true,
    platform: 'browser',
    // Shoppers' browsers: WebCrypto, fetch keepalive and sendBeacon are in all of these.
    target: ['chrome109', 'firefox115', 'safari16'],
    minify: true,
    legalComments: 'eof',
    logLevel: 'warning',
  };
  await build({ ...shared, format: 'iife', globalName: 'Ringfence', outfile: join(outdir, 'ringfence.js') });
  await build({ ...shared, format: 'esm', outfile: join(outdir, 'ringfence.mjs') });
  for (const file of SAMPLE_FILES) copyFileSync(join(ROOT, 'sample', file), join(outdir, file));
}
