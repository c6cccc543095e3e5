/** Training rows and the rows held out for evaluation, as indices into the examples. */
export interface TimeOrderedSplit {
  trainingRows: Uint32Array;
  holdoutRows: Uint32Array;
}

/**
 * Holds out the latest `holdoutFraction` of the examples in event time (ADR-0012: the latest
 * 20 %), so a model is measured on a future it never saw, as it will be used; a random split
 * would let it learn from a fraud ring's later attempts and score the earlier ones. Examples at
 * the boundary's instant are all held out, so no held-out example is older than a training one
 * (the holdout can be a little larger than the fraction). Both lists are in time order.
 */
export function timeOrderedSplit(eventTimes: ArrayLike<number>, holdoutFraction = 0.2): TimeOrderedSplit {
  if (!(holdoutFraction > 0 && holdoutFraction < 1)) throw new RangeError(`holdoutFraction must be between 0 and 1, not ${holdoutFraction}`);
  const count = eventTimes.length;
  for (let index = 0; index < count; index += 1) {
    if (!Number.isFinite(eventTimes[index])) throw new RangeError(`example ${index} has no event time (${eventTimes[index]})`);
  }
  const order = Uint32Array.from({ length: count }, (_, index) => index).sort((left, right) => eventTimes[left] - eventTimes[right] || left - right);
  let boundary = count - Math.ceil(count * holdoutFraction);
  while (boundary > 0 && eventTimes[order[boundary - 1]] === eventTimes[order[boundary]]) boundary -= 1;
  return { trainingRows: order.slice(0, boundary), holdoutRows: order.slice(boundary) };
}

/** `timeOrderedSplit` of a list of examples. */
export function timeOrderedHoldout<T>(examples: readonly T[], eventTimeOf: (example: T) => number, holdoutFraction = 0.2): { training: T[]; holdout: T[] } {
  const { trainingRows, holdoutRows } = timeOrderedSplit(
    examples.map((example) => eventTimeOf(example)),
    holdoutFraction,
  );
  return { training: Array.from(trainingRows, (row) => examples[row]), holdout: Array.from(holdoutRows, (row) => examples[row]) };
}
