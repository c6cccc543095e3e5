import type { Checkpoint, RuleAction } from '@ringfence/contracts';
import type { DecisionSignals, RuleInputs } from '@ringfence/scoring-engine';
import type { CheckpointSubject } from '../checkpoint-definition';

/**
 * A decision record's event as backtests, training and decision reads read it back (what
 * `CheckpointScorer` recorded; every part optional, as an older record may lack one).
 */
export interface RecordedDecision {
  /** The feature catalogue's checkpoint (a PSP transaction's is `transaction`). */
  checkpoint?: Checkpoint;
  recommendation?: { action?: RuleAction };
  subject?: CheckpointSubject;
  /** The rule context without its features, which are the event's `features`. */
  context?: Omit<RuleInputs, 'features'>;
  /** Without the features whose value was zero (`recordedFeatures`); `modelVersion` among them. */
  features?: RuleInputs['features'];
  signals?: Omit<DecisionSignals, 'ruleAction'>;
  /** The rules of the checkpoint that were true, in the versions in force then (a backtest keeps the others in force). */
  rules?: { triggered?: ReadonlyArray<{ ruleId: number; ruleVersion: number; state: string; action: RuleAction }> };
  explanation?: Record<string, unknown>;
}
