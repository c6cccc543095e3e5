export interface VelocityFeaturesOptions {
  /**
   * Keys held in memory at most, over every tenant and dimension. Past it, keys not recorded
   * since the last sweep went by are forgotten first (a CLOCK approximation of least recently
   * used). Keys idle for 30 days + the late allowance are forgotten anyway. Default 2,000,000.
   */
  maxKeys?: number;
  /**
   * Keys one account may hold, both its data sets together (ADR-0016, "Tenants share
   * fairly"). An event of an account that holds this many adds to its existing keys but makes
   * no new one (`record` says so), and nothing of another account's is evicted for it. Keys
   * loaded at start are always loaded (accepted data is kept). Default: `maxKeys` (no share).
   */
  accountMaxKeys?: number;
  /** The wall clock (epoch ms): the age of remembered event ids, the future guard below. */
  now?: () => number;
  /** How long the ids of recorded events are remembered to drop redeliveries (processing time). Default 5 min. */
  recordedEventMemoryMillis?: number;
  /** How long the ids loaded by `restoreRecordedEventIds` are remembered: the replay after a restart must pass them. Default 1 h. */
  restoredEventMemoryMillis?: number;
  /**
   * Events stamped further ahead of the wall clock than this are counted but do not move their
   * tenant's clock, so one wrong timestamp cannot make every key look idle. Default one day.
   */
  futureToleranceMillis?: number;
}

/**
 * The result of `record`. `recorded-without-new-keys`: recorded into the keys the account
 * holds, but a key the event names was not made, because the account holds its share.
 */
export type RecordOutcome = 'recorded' | 'recorded-without-new-keys' | 'duplicate';
