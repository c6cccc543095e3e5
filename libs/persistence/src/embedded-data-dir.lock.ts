import { open, readFile, unlink } from 'node:fs/promises';

/**
 * A PID lock file next to the embedded database, held while it is open.
 *
 * PGlite does not stop a second process from opening the same directory (PostgreSQL's own
 * postmaster.pid check is not part of it), and two PostgreSQL instances writing one data
 * directory corrupt it: starting the embedded default twice must fail instead. A lock left by
 * a process that no longer runs (a crash, or a container restarted with the same PID) is
 * taken over.
 */
export class EmbeddedDataDirLock {
  private static readonly heldByThisProcess = new Set<string>();

  private released = false;

  private constructor(readonly path: string) {}

  /** @throws Error naming the process that holds the lock. */
  static async acquire(path: string): Promise<EmbeddedDataDirLock> {
    if (EmbeddedDataDirLock.heldByThisProcess.has(path)) {
      throw new Error(`it is already open in this process (lock file ${path})`);
    }
    // Two attempts: the second follows the removal of a stale lock. Two processes taking over
    // the same stale lock in the same instant could both succeed; that needs a crash and two
    // simultaneous restarts, and a lock file cannot rule it out without OS file locks.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        const handle = await open(path, 'wx', 0o600);
        try {
          await handle.writeFile(`${process.pid}\n`);
        } finally {
          await handle.close();
        }
        EmbeddedDataDirLock.heldByThisProcess.add(path);
        return new EmbeddedDataDirLock(path);
      } catch (error: unknown) {
        if (!hasCode(error, 'EEXIST')) {
          throw error;
        }
      }
      const owner = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
      if (Number.isSafeInteger(owner) && owner !== process.pid && isRunning(owner)) {
        throw new Error(`it is in use by process ${owner} (lock file ${path})`);
      }
      await unlink(path).catch((error: unknown) => {
        if (!hasCode(error, 'ENOENT')) throw error;
      });
    }
    throw new Error(`the lock file ${path} keeps being taken`);
  }

  /** Idempotent: a second call must not remove a lock taken since by someone else. */
  async release(): Promise<void> {
    if (this.released) {
      return;
    }
    this.released = true;
    EmbeddedDataDirLock.heldByThisProcess.delete(this.path);
    await unlink(this.path).catch(() => undefined);
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error: unknown) {
    // EPERM: it runs, under another user.
    return hasCode(error, 'EPERM');
  }
}

// Not `instanceof Error`: errors from Node's own modules come from another realm under jest.
function hasCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as NodeJS.ErrnoException).code === code;
}
