/**
 * Rows a writer behind the request could not store (ADR-0016, "One bad row never blocks the
 * others"): kept with their error where an operator can read and replay them.
 */

/** A row to set aside: which writer, whose, its key in that writer, the row as JSON text, why. */
export interface SetAsideEntry {
  /** The writer's name (`decision-records`, `entity-documents`…), which replays it. */
  writer: string;
  accountId: string | null;
  environment: string | null;
  /** The row's identity in its writer: a row set aside again replaces the earlier entry. */
  key: string;
  /** The row serialised as JSON (text: a JSON column refuses `\u0000`, which is what some rows hold). */
  row: string;
  /** The store's error of the last attempt. */
  error: string;
  /** Attempts made, the last included. */
  attempts: number;
}

/** An entry as kept. */
export interface SetAsideRow extends SetAsideEntry {
  id: string;
  /** Epoch ms. */
  setAsideAt: number;
}

export interface SetAsideListFilter {
  writer?: string;
  accountId?: string;
  /** Newest first, entries set aside before this one's. */
  before?: string;
  limit: number;
}

/** Where set-aside rows are kept: each process's own database (the rows of the writers it runs). */
export interface SetAsideStore {
  /** Keeps the entries (one statement); an entry with the writer and key of a kept one replaces it. */
  put(entries: readonly SetAsideEntry[]): Promise<void>;
  list(filter: SetAsideListFilter): Promise<SetAsideRow[]>;
  get(id: string): Promise<SetAsideRow | null>;
  /** Removes the entry, unless it was set aside again after `setAsideAt` (a newer failure stays). */
  remove(id: string, setAsideAt: number): Promise<void>;
}

/** Nest injection token of the `SetAsideStore`. */
export const SET_ASIDE_STORE = Symbol('SetAsideStore');

/** What a set-aside (or a failed one) tells the process: its metrics and log. */
export type SetAsideEvent =
  | { type: 'set-aside'; entries: readonly SetAsideEntry[] }
  | { type: 'set-aside-failed'; writer: string; rows: number; error: unknown };

export type SetAsideListener = (event: SetAsideEvent) => void;

/** The one sentence an error becomes in an entry and a log line (its SQLSTATE or driver code first, when it has one). */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = errorCode(error);
  const message = error.message.length > 500 ? `${error.message.slice(0, 500)}…` : error.message;
  return code === undefined ? `${error.name}: ${message}` : `${error.name} ${code}: ${message}`;
}

/** The error's own code, or its cause's (TypeORM's `QueryFailedError` keeps the driver's in `driverError`). */
export function errorCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; typeof current === 'object' && current !== null && depth < 4; depth += 1) {
    const { code } = current as { code?: unknown };
    if (typeof code === 'string' && code !== '') return code;
    current = (current as { driverError?: unknown; cause?: unknown }).driverError ?? (current as { cause?: unknown }).cause;
  }
  return undefined;
}
