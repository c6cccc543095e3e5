/** What the embedded database's worker (`pglite.worker.ts`) reads from `workerData`. */
export interface PGliteWorkerData {
  dataDir: string;
  /** How long an open transaction may sit idle while other sessions wait before it is rolled back. */
  ownerWaitMs: number;
  /** How long a background batch may wait while foreground ones run. */
  backgroundMaxWaitMs: number;
  /** Only create the database (initdb), close it and say so. */
  initialiseOnly: boolean;
  /** The text a background statement starts with (`BACKGROUND_STATEMENT`). */
  backgroundMark: string;
  /** Where PGlite's package is: the worker loads it by path. */
  pglitePath: string;
}

/** From the main thread to the worker. */
export type WorkerRequest = { type: 'query'; id: number; session: number; bytes: Uint8Array; at: number } | { type: 'close' };

/** From the worker to the main thread. */
export type WorkerReply =
  | { type: 'ready' | 'closed' | 'initialised' }
  | { type: 'open-failed'; message: string }
  | { type: 'answer'; id: number; bytes: Uint8Array }
  | { type: 'failed'; id: number; message: string };
