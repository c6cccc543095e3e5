// The shapes of the public API answers the console reads (docs/api.md). Written here rather than
// imported from libs/contracts: those are server classes (decorators, class-validator) that do
// not belong in a browser bundle. Clients tolerate unknown fields (ADR-0001), so only what
// the console shows is listed.

export type Action = 'ALLOW' | 'REVIEW' | 'PREVENT';
export type SubjectType = 'customer' | 'supplier';

export type { Contribution, Decision, DecisionPage, Explanation, ExplanationRule, TriggeredRule } from './types/decisions';

export interface StoredSubject {
  customerId?: string;
  supplierId?: string;
  fields: Record<string, unknown>;
  updatedAt: number | null;
}

export interface NetworkNode {
  id: string;
  type: string;
  value: string;
  depth?: number;
  subject?: true;
  fraudster?: true;
  /** Issue 37: a linked customer's latest score and its current labels (category -> review). */
  score?: number | null;
  labels?: Record<string, string | { review: string }> | string[] | null;
}

export interface NetworkEdge {
  source: string;
  target: string;
  firstSeen?: number;
  /** Issue 37: the attribute the two ends share (a card as BIN…last4). */
  attribute?: { kind: string; value: string };
}

export interface Network {
  nodes: NetworkNode[];
  edges: NetworkEdge[];
  truncated: boolean;
  statistics: Record<string, unknown>;
  /** Issue 37: node ids of the shortest path from the subject to the nearest fraudster. */
  pathToFraudster?: string[] | null;
}

export interface Label {
  review: string;
  eventTime: string;
  reviewer: { name?: string; email?: string } | null;
  comment: string | null;
}

export interface LabelChange extends Label {
  category: string;
  previous: string | null;
}

export interface Labels {
  labels: Record<string, Label>;
  history: LabelChange[];
}

export interface LookupHit {
  value: string;
  known: boolean;
  chargebacks: number;
  manualReviews: number;
  firstSeen: number | null;
  lastSeen: number | null;
  sources: { chargeback: number; manualReview: number; report: number };
}

/** `suspended`: the version kept failing and is not evaluated until it is edited (docs/rules.md). */
export type RuleState = 'active' | 'passive' | 'disabled' | 'suspended';

export interface Rule {
  ruleId: number;
  ruleVersion: number;
  name: string;
  description: string;
  checkpoint: string;
  expression: string;
  action: Action;
  state: RuleState;
  createdAt: string;
  createdBy?: string;
  author?: string;
  suspension?: { suspendedAt: string; reason: string };
  /** On the list and the rule read (not its versions); lastHitAt in epoch ms. */
  hits?: { last24h: number; last30d: number; total: number };
  lastHitAt?: number | null;
}

export interface RuleDraft {
  name: string;
  description: string;
  checkpoint: string;
  expression: string;
  action: Action;
  state: RuleState;
}

export interface Validation {
  valid: boolean;
  errors: Array<{ message: string; position?: number | null }>;
}

export type ActionCounts = Record<Action, number>;

/** A decision a backtest changed, or a tried rule triggered on. */
export interface BacktestMatch {
  scoreId: string;
  subjectId: string | null;
  timestamp: number;
  /** Major units. */
  amount?: number;
  currency?: string;
  before: Action;
  after: Action;
  outcome: 'fraud' | 'genuine' | null;
}

export interface Backtest {
  /** The window used (epoch ms): as asked, or the data set's period of the checkpoint. */
  from: number;
  to: number;
  evaluated: number;
  rules: Array<{ ruleId?: number; name: string; triggered: number }>;
  actions: { before: ActionCounts; after: ActionCounts };
  changed: Array<{ from: Action; to: Action; count: number }>;
  labelled: { fraud: number; fraudTriggered: number; genuine: number; genuineTriggered: number; precision: number | null; recall: number | null };
  /** Newest first, at most 200. */
  matches: BacktestMatch[];
}

export interface Model {
  modelId: string;
  checkpoint: string;
  status: 'training' | 'ready' | 'failed';
  createdAt: string;
  createdBy: string;
  from: number | null;
  to: number;
  examples: number;
  positives: number;
  metrics: { auc: number | null; averagePrecision: number | null; precisionAtPrevent: number | null; recallAtReview: number | null } | null;
  active: boolean;
  /** The default model shipped for the checkpoint (`default-<checkpoint>`); version: the modelVersion decisions record. */
  shipped?: boolean;
  version?: string;
  algorithm?: string | null;
  progress?: { stage: 'reading' | 'training'; done: number; total: number | null };
  error?: string;
}

export type Thresholds = Record<string, { review: number; prevent: number }>;

export interface Account {
  accountId: string;
  name: string;
  environment: 'test' | 'live';
  settings: {
    scoreThresholds?: Thresholds | null;
    callbackUrl: string | null;
    callbackSecretSet: boolean;
    testCallbackUrl: string | null;
    testCallbackSecretSet: boolean;
    /** The IANA time zone the checkpoints' hours are read in; null: UTC. */
    timeZone: string | null;
    /** The browser origins of each data set's publishable key (the client SDK endpoints); [] when none. */
    allowedOrigins?: string[];
    testAllowedOrigins?: string[];
    /** Whether the POTENTIALLY_ reviews may be applied (the operator switches them on). */
    potentialLabelsEnabled?: boolean;
    [setting: string]: unknown;
  };
  keys: Array<{ keyId: string; prefix: string; kind: string; environment: string; createdAt: string; revokedAt: string | null; current?: boolean }>;
}

export interface Delivery {
  deliveryId: string;
  event: { subjectType?: string; subjectId?: string; category?: string; review?: string; [field: string]: unknown };
  url: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Array<{ at: string; httpStatus: number | null; error: string | null; durationMs: number }>;
  nextAttemptAt: string | null;
  createdAt: string;
}

// Issue 37: cases, search, evidence (docs/api.md "Cases", "Search", "Customer evidence").

export type CaseStatus = 'open' | 'in_review' | 'closed';
export type CaseOutcome = 'fraud' | 'genuine' | 'no_action';

export interface Money {
  amount: number;
  currency: string;
}

export interface Case {
  caseId: string;
  subjectType: SubjectType;
  subjectId: string;
  status: CaseStatus;
  outcome: CaseOutcome | null;
  assignee: { email: string; name?: string } | null;
  checkpoints: string[];
  decisionCount: number;
  maxScore: number | null;
  totalAmount: Money | null;
  openedAt: number;
  lastDecisionAt: number;
  updatedAt: number;
  closedAt: number | null;
  version: number;
}

export interface CasePage {
  cases: Case[];
  nextCursor: string | null;
  total?: number;
}

export type PaymentDecision = 'approve' | 'decline' | 'fraud' | 'not_fraud';

export interface PaymentReview {
  transactionId: string;
  customerId?: string;
  decision: PaymentDecision;
  actor: string;
  at: number;
  comment?: string | null;
}

/** A payment's current review as a customer's evidence carries it. */
export type CurrentReview = Pick<PaymentReview, 'decision' | 'actor' | 'at' | 'comment'>;

export interface CaseDecision {
  scoreId: string;
  checkpoint: string;
  action: Action;
  score: number | null;
  timestamp: number;
  transactionId?: string;
  orderId?: string;
  amount?: number;
  currency?: string;
  review?: PaymentReview | null;
}

export interface CaseDetail {
  case: Case;
  decisions: CaseDecision[];
  notes: Array<{ noteId: string; text: string; author: string; at: number }>;
  audit: Array<{ at: number; actor: string; action: string; detail?: unknown }>;
}

export type SearchKind = 'customerId' | 'email' | 'phone' | 'card' | 'instrument' | 'device' | 'ip' | 'supplierId';

export interface SearchResult {
  subjectType: SubjectType;
  subjectId: string;
  matched: { kind: SearchKind | string; value: string };
  name?: string;
  email?: string;
  label?: string | null;
}

export interface EvidenceDecision {
  scoreId: string;
  checkpoint?: string;
  action: Action | null;
  score: number | null;
}

export interface EvidenceDispute {
  disputeId?: string;
  transactionId?: string;
  status: string | null;
  outcome?: string;
  reason?: string;
  forgiven?: boolean;
  amount?: number;
  currency?: string;
  at: number | null;
}

export interface EvidencePayment {
  transactionId: string;
  orderId?: string;
  at: number;
  /** Minor units of `currency`. */
  amount: number | null;
  currency: string | null;
  success?: boolean;
  declineCode?: string;
  card?: { bin?: string; last4?: string; country?: string; instrumentId?: string };
  ip?: { address: string; country?: string };
  device?: { deviceId: string; userAgent?: string };
  billingAddress?: Record<string, unknown>;
  shippingAddress?: Record<string, unknown>;
  decision?: EvidenceDecision;
  disputes?: EvidenceDispute[];
  /** The analyst's current review; null when none. */
  review: CurrentReview | null;
}

export interface EvidenceRecord {
  orderId?: string;
  refundId?: string;
  transactionId?: string;
  at: number;
  amount: number | null;
  currency: string | null;
  decision?: EvidenceDecision;
}

export interface Sighting {
  firstSeen?: number;
  lastSeen?: number;
  /** Decisions that saw it. */
  count?: number;
}

export interface Evidence {
  customer: { id: string; name?: string; email?: string; phone?: string; createdAt?: number; country?: string };
  payments: EvidencePayment[];
  orders?: EvidenceRecord[];
  refunds?: EvidenceRecord[];
  disputes?: EvidenceDispute[];
  spend?: Record<string, { total: number; count: number }>;
  addresses?: Array<{ kind: 'billing' | 'shipping'; address: Record<string, unknown>; lastSeen?: number }>;
  devices?: Array<Sighting & { deviceId: string; userAgent?: string }>;
  ips?: Array<Sighting & { address: string; country?: string }>;
  decisionsRead?: number;
}

export interface Device {
  deviceId: string;
  firstSeen: number | null;
  lastSeen: number | null;
  reported: { userAgent?: string; languages?: string[]; timeZone?: string; screen?: { width: number; height: number }; platform?: string; webdriver?: boolean; fingerprint?: string } | null;
  fingerprints: string[];
  eventCounts: Record<string, number>;
  sessions: Array<{ sessionId: string; firstSeen: number; lastSeen: number; eventCounts: Record<string, number> }>;
  ipAddresses: Array<{ ipAddress: string; firstSeen: number; lastSeen: number }>;
  customers: Array<{ customerId: string; firstSeen: number; lastSeen: number }>;
  cards: Array<{ instrumentId: string; cardBin?: string; cardLastFour?: string; firstSeen: number; lastSeen: number }>;
}
