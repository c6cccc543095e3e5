import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Every jest run gets its own temporary directory: global setup points TMPDIR at it (the workers
 * and the processes the tests start inherit it, so `os.tmpdir()` answers it everywhere), global
 * teardown checks that the tests removed what they created there, then removes it. The check
 * only sees this run's files, whatever other runs do in the system's temporary directory.
 */
const RUN_DIR = 'RINGFENCE_TEST_RUN_TMPDIR';
const SYSTEM_TMPDIR = 'RINGFENCE_TEST_SYSTEM_TMPDIR';

/** Shared by the test files of one run on purpose (libs/persistence test-support), removed with it. */
const RUN_CACHES = [/^ringfence-persistence-template-/];

export function enterRunTmpdir(): string {
  const system = tmpdir();
  const runDir = mkdtempSync(join(system, 'ringfence-jest-'));
  process.env[SYSTEM_TMPDIR] = process.env.TMPDIR ?? '';
  process.env[RUN_DIR] = runDir;
  process.env.TMPDIR = runDir;
  return runDir;
}

/** Removes the run's temporary directory; answers what the tests left in it (`name (size)`). */
export function leaveRunTmpdir(): string[] {
  const runDir = process.env[RUN_DIR];
  if (runDir === undefined) return [];
  const system = process.env[SYSTEM_TMPDIR];
  if (system) process.env.TMPDIR = system;
  else delete process.env.TMPDIR;
  delete process.env[RUN_DIR];
  delete process.env[SYSTEM_TMPDIR];
  const leftovers = readdirSync(runDir)
    .filter((name) => !RUN_CACHES.some((cache) => cache.test(name)))
    .map((name) => `${name} (${formatBytes(sizeOf(join(runDir, name)))})`);
  rmSync(runDir, { recursive: true, force: true });
  return leftovers;
}

function sizeOf(path: string): number {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats === undefined) return 0;
  if (!stats.isDirectory()) return stats.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

function formatBytes(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} kB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
