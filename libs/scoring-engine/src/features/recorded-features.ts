import type { Checkpoint } from '@ringfence/contracts';
import { featureDeclarations } from './feature-catalogue';
import type { FeatureType, FeatureValue } from './feature-definition';
import { FeatureVector } from './feature-vector';

/**
 * How a decision event records its feature vector: every feature except those whose value is
 * its type's zero (0 for numbers, false for booleans). Most of a vector is zeros (a
 * checkpoint's velocity counters, flags that did not fire), and the event is written to the
 * log, the decision feed and the decision records on every checkpoint: the zeros were over half
 * of its bytes. Nulls (not computed) stay, so a reader can tell "not known" from "zero".
 */
export function recordedFeatures(values: FeatureVector | Readonly<Record<string, FeatureValue>>): Record<string, FeatureValue> {
  const recorded: Record<string, FeatureValue> = {};
  if (values instanceof FeatureVector) {
    // Straight from the vector, in catalogue order (the order of its record): no record of every feature is built.
    const { names } = values.layout;
    for (let position = 0; position < names.length; position += 1) {
      const value = values.values[position];
      if (value !== 0 && value !== false) recorded[names[position]] = value;
    }
    return recorded;
  }
  for (const name in values) {
    const value = values[name];
    if (value !== 0 && value !== false) recorded[name] = value;
  }
  return recorded;
}

const ZERO: Record<FeatureType, FeatureValue> = { bool: false, int: 0, double: 0, string: null };

/** Each checkpoint's declared features and their zeros, resolved once. */
const declaredZeros = new Map<Checkpoint, ReadonlyArray<readonly [string, FeatureValue]>>();

/**
 * The whole feature vector a decision was made with, from its event's `features`
 * (`recordedFeatures`): a declared feature that is not there had its type's zero. Values the
 * catalogue does not declare (modelScore, decisionReason…) are kept as recorded.
 */
export function featuresFromRecord(checkpoint: Checkpoint, recorded: Readonly<Record<string, FeatureValue>>): Record<string, FeatureValue> {
  let zeros = declaredZeros.get(checkpoint);
  if (zeros === undefined) {
    zeros = featureDeclarations(checkpoint).map((declaration) => [declaration.name, ZERO[declaration.type]] as const);
    declaredZeros.set(checkpoint, zeros);
  }
  const values: Record<string, FeatureValue> = {};
  for (const [name, zero] of zeros) values[name] = name in recorded ? recorded[name] : zero;
  for (const name in recorded) if (!(name in values)) values[name] = recorded[name];
  return values;
}
