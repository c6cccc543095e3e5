/**
 * One request of the simulated (or imported) traffic: a JSON Lines record
 * `{"path": "/psp/transaction", "query": {"checkpoint": "pspBeforeAuth"}, "time": 1767571200000, "body": {...}}`.
 * `path` is the API path (POST), `query` its query parameters (absent when none), `time` the
 * event time in epoch milliseconds (the body's `timestamp`; the label bodies have none, so it is
 * the only place their time is kept), `body` the request body exactly as the API takes it.
 */
export interface TrafficRecord {
  path: string;
  query?: Record<string, string>;
  time: number;
  body: Record<string, unknown>;
}

/** The kinds of fraud the simulation plants (README: "Fraud patterns"). */
export const FRAUD_KINDS = [
  'stolen-card',
  'account-takeover',
  'card-testing',
  'promo-abuse',
  'referral-abuse',
  'refund-abuse',
  'fake-supplier',
  'drifting-fraud',
] as const;
export type FraudKind = (typeof FRAUD_KINDS)[number];

/**
 * Ground truth: one record per fraudulent actor (a ring counts as one actor), with every
 * identifier it used and when its fraud began (its first fraudulent request, in event time).
 */
export interface TruthRecord {
  kind: FraudKind;
  actorId: string;
  /** Event time of the actor's first fraudulent request (epoch ms), and the same as ISO 8601. */
  fraudBeganAt: number;
  fraudBegan: string;
  /** Customers whose accounts the actor created or took over. */
  customerIds: string[];
  supplierIds: string[];
  deviceIds: string[];
  instrumentIds: string[];
  /** PSP transactions the actor made that a genuine cardholder did not authorise (they are disputed if the simulation says so). */
  transactionIds: string[];
  refundIds: string[];
  payoutIds: string[];
  voucherCodes: string[];
  /** What distinguishes this actor (tactics of drifting fraud, ring size, the victim's id…). */
  detail: Record<string, unknown>;
}
