import { minorUnitDigits } from '../currency-amounts';
import { OccurrenceFlags } from './occurrence-registry';
import { VelocityBuckets } from './velocity-buckets';
import { VELOCITY_MEASURES, type VelocityMeasureName } from './velocity-dimensions';
import type { VelocityOccurrence } from './velocity-events';

/** A key in memory: its buckets, the currency of its sums, the CLOCK bit of the eviction, and what the store holds of it. */
export class VelocityKey extends VelocityBuckets {
  currency: string | undefined = undefined;
  recentlyUsed = true;
  /** The `changeVersion` and fresh boundary of the `older` part last handed over; -1: none (write it whole). */
  writtenVersion = -1;
  writtenFreshFrom = Number.NEGATIVE_INFINITY;
}

/** One number field's increment by an event: counts and failures 1, sums the amount in major units, squares its square. */
export function increment(name: VelocityMeasureName, state: VelocityKey, occurrence: VelocityOccurrence, granted: number): number {
  const measure = VELOCITY_MEASURES[name];
  if (measure.kind === 'distinct' || measure.occurrence !== occurrence.kind) return 0;
  switch (measure.kind) {
    case 'count':
      return granted & OccurrenceFlags.COUNTED ? 1 : 0;
    case 'failures':
      return granted & OccurrenceFlags.FAILED ? 1 : 0;
    case 'sum':
      return granted & OccurrenceFlags.SUMMED ? majorUnitsIn(state, occurrence) : 0;
    case 'squares':
      return granted & OccurrenceFlags.SUMMED ? majorUnitsIn(state, occurrence) ** 2 : 0;
  }
}

/**
 * The occurrence's amount in major units when it is in the key's currency; the key takes the
 * currency of the first amount it sums. Zero for an amount without a currency, in a currency that
 * is not ISO 4217, or in another currency than the key's.
 */
function majorUnitsIn(state: VelocityKey, { amount }: VelocityOccurrence): number {
  if (amount?.currency == null) return 0;
  const currency = amount.currency.trim().toUpperCase();
  const digits = minorUnitDigits(currency);
  if (digits === null) return 0;
  state.currency ??= currency;
  return state.currency === currency ? amount.minorUnits / 10 ** digits : 0;
}
