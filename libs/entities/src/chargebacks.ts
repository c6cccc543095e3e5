/** The parts of a connect chargeback or a PSP dispute that say whether it still counts. */
export interface ChargebackState {
  nonFraud?: unknown;
  outcome?: unknown;
  stage?: unknown;
}

/**
 * decisions §4: a chargeback makes its customer a fraudster unless it is forgiven: marked
 * `nonFraud: true` (connect chargeback), or won by the merchant / reversed (PSP dispute).
 */
export function isChargebackForgiven(state: ChargebackState): boolean {
  return state.nonFraud === true || state.outcome === 'WON' || state.stage === 'CHARGEBACK_REVERSED';
}

/**
 * The customer record keeps one entry per chargeback, `chargebacks.<id>.forgiven`, merged by
 * timestamp like every field, so the newest state of each chargeback wins and scoring reads
 * one document instead of searching disputes.
 */
export function chargebackEntry(chargebackId: string, state: ChargebackState): Record<string, unknown> {
  return { chargebacks: { [chargebackId]: { forgiven: isChargebackForgiven(state) } } };
}

/** True when any chargeback recorded on the customer is not forgiven. */
export function hasUnforgivenChargeback(customerFields: Record<string, unknown> | undefined): boolean {
  const chargebacks = customerFields?.chargebacks;
  if (typeof chargebacks !== 'object' || chargebacks === null) return false;
  return Object.values(chargebacks).some((entry) => (entry as { forgiven?: unknown })?.forgiven === false);
}
