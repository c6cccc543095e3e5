/** Changes per batch of `GraphStore.load` unless the caller says otherwise. */
export const DEFAULT_LOAD_BATCH_SIZE = 10_000;

/** A batch size is a positive integer (a caller bug otherwise: the load would never end). */
export function requireBatchSize(batchSize: number): void {
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`);
}
