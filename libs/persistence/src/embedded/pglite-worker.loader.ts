import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PGliteWorkerData } from './pglite-worker.messages';

/** The worker program as the build emits it, beside this module in dist/. */
const COMPILED_WORKER = join(__dirname, 'pglite.worker.js');
const WORKER_SOURCE = join(__dirname, 'pglite.worker.ts');

let transpiledWorker: string | undefined;

/**
 * Starts the embedded database's worker thread (`pglite.worker.ts`). From dist/ it is the
 * compiled file; from the TypeScript sources (jest, which runs no build) there is none, so the
 * same source is transpiled once per process with esbuild (a dev dependency, as the sources
 * are) and run as an evaluated script. Either way it is the one typed, linted module.
 */
export function startPGliteWorker(workerData: PGliteWorkerData): Worker {
  if (existsSync(COMPILED_WORKER)) return new Worker(COMPILED_WORKER, { workerData });
  return new Worker(transpiledWorkerSource(), { eval: true, workerData });
}

function transpiledWorkerSource(): string {
  const esbuild = require('esbuild') as typeof import('esbuild');
  transpiledWorker ??= esbuild.transformSync(readFileSync(WORKER_SOURCE, 'utf8'), { loader: 'ts', format: 'cjs', target: 'es2022', sourcefile: WORKER_SOURCE }).code;
  return transpiledWorker;
}
