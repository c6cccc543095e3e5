import type { ChallengePreference, OptimisationSource, RuleAction, ScaExemption } from '@ringfence/contracts';
import type { TriggeredRule } from '../rules/rule-evaluation';

/**
 * The account's 3-D Secure policy for PSP transactions before authorisation. Limits are per
 * currency, in major units (no exchange rates: a currency without a limit gets no exemption).
 */
export interface OptimisationPolicy {
  /** Low-value exemption below these amounts (PSD2: 30 EUR). */
  lowValueLimits: Readonly<Record<string, number>>;
  /** Transaction-risk-analysis exemption up to these amounts; none when empty (the acquirer's fraud rate sets what it may use). */
  traLimits: Readonly<Record<string, number>>;
  /** TRA only for scores up to this. */
  traMaxScore: number;
}

export const DEFAULT_OPTIMISATION_POLICY: OptimisationPolicy = { lowValueLimits: { EUR: 30 }, traLimits: {}, traMaxScore: 20 };

export interface OptimisationInputs {
  transactionId: string;
  /** The answer's action (after every source). */
  action: RuleAction;
  /** The model's score. */
  score: number;
  /** The amount in major units of `currency`; null when the request has none. */
  amountMajor: number | null;
  currency: string | null;
  /** The rules that triggered at this checkpoint. */
  triggered: readonly TriggeredRule[];
  policy: OptimisationPolicy;
}

export interface TransactionOptimisation {
  transactionId: string;
  action: 'AUTHENTICATE';
  exemption?: ScaExemption;
  threeDSChallengePreference: ChallengePreference;
  actionSource: OptimisationSource;
  rules: {
    triggered: Array<{ ruleId: number; ruleVersion: number; action: 'AUTHENTICATE'; exemption?: ScaExemption; threeDSChallengePreference?: ChallengePreference; triggered: true; state: 'active' | 'passive' }>;
  };
}

/**
 * How to run 3-D Secure for a transaction about to be authorised (the `transactionOptimisation`
 * of the answer), or null when it should not go ahead (PREVENT).
 *
 * - A triggered **active** rule that sets an exemption or a challenge preference decides
 *   (`actionSource: CLIENT_RULE`; the lowest ruleId first when several do).
 * - Otherwise the policy (`RINGFENCE`): an ALLOW within the account's TRA limit for its currency
 *   and at most `traMaxScore` asks for TRANSACTION_RISK_ANALYSIS; else an ALLOW below the
 *   low-value limit asks for LOW_VALUE; an exemption goes with NO_CHALLENGE_REQUESTED. A REVIEW
 *   is authenticated with CHALLENGE_MANDATED; anything else with NO_PREFERENCE.
 */
export function optimiseTransaction(inputs: OptimisationInputs): TransactionOptimisation | null {
  if (inputs.action === 'PREVENT') return null;
  const optimising = inputs.triggered.filter((rule) => rule.transactionOptimisation !== undefined);
  const rules = {
    triggered: optimising.map((rule) => ({
      ruleId: rule.ruleId,
      ruleVersion: rule.ruleVersion,
      action: 'AUTHENTICATE' as const,
      ...rule.transactionOptimisation,
      triggered: true as const,
      state: rule.state,
    })),
  };
  const deciding = optimising.find((rule) => rule.state === 'active');
  if (deciding?.transactionOptimisation !== undefined) {
    const { exemption, threeDSChallengePreference } = deciding.transactionOptimisation;
    return {
      transactionId: inputs.transactionId,
      action: 'AUTHENTICATE',
      ...(exemption === undefined ? {} : { exemption }),
      threeDSChallengePreference: threeDSChallengePreference ?? (exemption === undefined ? 'NO_PREFERENCE' : 'NO_CHALLENGE_REQUESTED'),
      actionSource: 'CLIENT_RULE',
      rules,
    };
  }
  const exemption = inputs.action === 'ALLOW' ? policyExemption(inputs) : undefined;
  const threeDSChallengePreference: ChallengePreference = exemption !== undefined ? 'NO_CHALLENGE_REQUESTED' : inputs.action === 'REVIEW' ? 'CHALLENGE_MANDATED' : 'NO_PREFERENCE';
  return { transactionId: inputs.transactionId, action: 'AUTHENTICATE', ...(exemption === undefined ? {} : { exemption }), threeDSChallengePreference, actionSource: 'RINGFENCE', rules };
}

function policyExemption({ amountMajor, currency, score, policy }: OptimisationInputs): ScaExemption | undefined {
  if (amountMajor === null || currency === null) return undefined;
  const traLimit = policy.traLimits[currency];
  if (traLimit !== undefined && amountMajor <= traLimit && score <= policy.traMaxScore) return 'TRANSACTION_RISK_ANALYSIS';
  const lowValueLimit = policy.lowValueLimits[currency];
  if (lowValueLimit !== undefined && amountMajor < lowValueLimit) return 'LOW_VALUE';
  return undefined;
}
