// The shapes of the public API answers the console reads (docs/api.md). Written here rather than
// imported from libs/contracts: those are server classes (decorators, class-validator) that do
// not belong in a browser bundle. Clients tolerate unknown fields (ADR-0001), so only what
// the console shows is listed.

export type Action = 'ALLOW' | 'REVIEW' | 'PREVENT';
export type SubjectType = 'customer' | 'supplier';

export interface Contribution {
  feature: string;
  value: number | boolean | string | null;
  condition?: string;
  contribution: number;
}

export interface ExplanationRule {
  ruleId: number;
  ruleVersion: number;
  name: string;
  state: 'active' | 'passive';
  action: Action;
}

export interface Explanation {
  modelVersion: string;
  modelScore: number;
  baseScore: number;
  raised: Contribution[];
  lowered: Contribution[];
  rules: ExplanationRule[];
  reason: string;
}

export interface TriggeredRule {
  ruleId: number;
  ruleVersion: number;
  ruleName?: string;
  state: 'active' | 'passive';
  action: Action;
  description: string;
}

export interface Decision {
  scoreId: string;
  checkpoint: string;
  action: Action;
  score: number | null;
  source: string | null;
  subjectType: SubjectType | null;
  subjectId: string | null;
  customerId?: string;
  supplierId?: string;
  eventTime: number;
  decidedAt?: number;
  rules: { triggered: TriggeredRule[]; passiveAction?: Action };
  explanation?: Explanation;
  modelVersion?: string;
}

export interface DecisionPage {
  decisions: Decision[];
  nextCursor: string | null;
}

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
}

export interface Network {
  nodes: NetworkNode[];
  edges: Array<{ source: string; target: string; firstSeen?: number }>;
  truncated: boolean;
  statistics: Record<string, unknown>;
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
  suspension?: { suspendedAt: string; reason: string };
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

export interface Backtest {
  evaluated: number;
  rules: Array<{ ruleId?: number; name: string; triggered: number }>;
  actions: { before: ActionCounts; after: ActionCounts };
  changed: Array<{ from: Action; to: Action; count: number }>;
  labelled: { fraud: number; fraudTriggered: number; genuine: number; genuineTriggered: number; precision: number | null; recall: number | null };
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
