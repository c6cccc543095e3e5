// The decisions the console reads (GET /v2/decisions, a checkpoint's answer) and their
// explanations, split out of types.ts by area (max-lines); types.ts re-exports them.
import type { Action, SubjectType } from '../types';

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
  /** Points of the contributions not listed: baseScore + Σraised + Σlowered + others = modelScore (docs/scoring.md). */
  others?: number;
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
