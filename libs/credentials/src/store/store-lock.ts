import { readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export class StoreBusyError extends Error {
  constructor(readonly pid: number) {
    super(`another import is running (pid ${pid}); try again when it has finished`);
    this.name = 'StoreBusyError';
  }
}

/**
 * One writer at a time (the CLI, the server's admin route, the start-up conversion): `lock`
 * holds the writer's pid, created exclusively. A lock whose process is gone (kill -9) is taken
 * over, which is what lets an interrupted import simply be run again.
 */
export function acquireStoreLock(storeDir: string): () => void {
  mkdirSync(storeDir, { recursive: true });
  const file = join(storeDir, 'lock');
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (error: unknown) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(readFileSync(file, 'utf8').trim());
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) throw new StoreBusyError(holder);
    rmSync(file, { force: true });
  }
  throw new Error(`could not take ${file}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error: unknown) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
