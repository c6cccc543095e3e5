import type { CustomerFeatures } from './customer-features';

export type Action = 'ALLOW' | 'REVIEW' | 'PREVENT';

export interface Thresholds {
  /** A score at or above this is REVIEW. */
  review: number;
  /** A score at or above this is PREVENT. */
  prevent: number;
}

export const DEFAULT_THRESHOLDS: Thresholds = { review: 50, prevent: 80 };

export interface ScoreContribution {
  /** The feature (or checkpoint signal) that added the points. */
  feature: string;
  points: number;
}

export interface CustomerScore {
  score: number;
  action: Action;
  contributions: ScoreContribution[];
}

/**
 * A first, transparent model: additive points for weak-identity signals, capped at 100. It is
 * deliberately simple and explainable (every point is listed in `contributions`); the scoring
 * issue replaces it with rules and a trained model. Weights are the usual first-line signals of
 * account-takeover and fake-account fraud: unverified contact details, a brand-new account,
 * machine-made addresses. Suppliers are scored on the same identity signals. Each checkpoint may
 * add its own signals (`checkpointSignals`, see checkpoint-signals.ts).
 */
export function scoreCustomer(
  features: CustomerFeatures,
  thresholds: Thresholds = DEFAULT_THRESHOLDS,
  checkpointSignals: readonly ScoreContribution[] = [],
): CustomerScore {
  const contributions: ScoreContribution[] = [];
  const add = (feature: keyof CustomerFeatures, points: number, when: boolean) => {
    if (when) contributions.push({ feature, points });
  };
  add('hasEmail', 15, !features.hasEmail);
  add('emailVerified', 15, features.hasEmail && !features.emailVerified);
  add('hasTelephone', 5, !features.hasTelephone);
  add('telephoneVerified', 10, features.hasTelephone && !features.telephoneVerified);
  add('accountAgeHours', 25, features.accountAgeHours !== null && features.accountAgeHours < 1);
  add('accountAgeHours', 10, features.accountAgeHours !== null && features.accountAgeHours >= 1 && features.accountAgeHours < 24);
  add('hasName', 10, !features.hasName);
  add('emailLocalPartDigitRatio', 25, features.emailLocalPartDigitRatio >= 0.5);
  return scoreContributions([...contributions, ...checkpointSignals], thresholds);
}

/** The score of a list of contributions: their sum, capped at 100, against the thresholds. */
export function scoreContributions(contributions: ScoreContribution[], thresholds: Thresholds = DEFAULT_THRESHOLDS): CustomerScore {
  const score = Math.min(100, contributions.reduce((sum, item) => sum + item.points, 0));
  const action: Action = score >= thresholds.prevent ? 'PREVENT' : score >= thresholds.review ? 'REVIEW' : 'ALLOW';
  return { score, action, contributions };
}
