// Bundles the console (a browser app) into one directory the gateway serves at /console:
// index.html, app.js and app.css, nothing loaded from elsewhere (the page's CSP forbids it).
// Called by tools/build.mjs; esbuild, Preact and cytoscape are build-time dependencies only.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const SOURCES = join(dirname(fileURLToPath(import.meta.url)), 'src');

/** Writes the bundle into `outdir` (replacing what was there), e.g. `dist/console`. */
export async function bundleConsole(outdir) {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: { app: join(SOURCES, 'main.tsx') },
    outdir,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    // What the gateway's users run: evergreen browsers of the last few years.
    target: ['chrome109', 'firefox115', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    legalComments: 'eof',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  await build({ entryPoints: { app: join(SOURCES, 'app.css') }, outdir, bundle: true, minify: true, logLevel: 'warning' });
  copyFileSync(join(SOURCES, 'index.html'), join(outdir, 'index.html'));
}
