import type { Explanation } from '../types';

/** Points as read: whole points plain, others to one decimal ("12.4"). */
const points = (value: number) => (Math.abs(value - Math.round(value)) < 0.05 ? String(Math.round(value)) : value.toFixed(1));
/** A term after the first, with its sign as the operator: "+ 35 raised", "− 12.4 lowered". */
const term = (value: number, name: string) => `${value < 0 ? '−' : '+'} ${points(Math.abs(value))} ${name}`;
const sum = (values: Array<{ contribution: number }>) => values.reduce((total, item) => total + item.contribution, 0);

/**
 * How an explanation adds up to the model's score, in points of the 0–100 score (docs/scoring.md:
 * baseScore + Σraised + Σlowered + others = modelScore, within rounding): "20 base + 35 raised −
 * 12.4 lowered + 1.5 others = 44". `others` is absent on decisions recorded before it existed.
 */
export function scoreSum(explanation: Pick<Explanation, 'baseScore' | 'raised' | 'lowered' | 'others' | 'modelScore'>): string {
  const terms = [`${points(explanation.baseScore)} base`, term(sum(explanation.raised), 'raised'), term(sum(explanation.lowered), 'lowered')];
  if (explanation.others !== undefined) terms.push(term(explanation.others, 'others'));
  return `${terms.join(' ')} = ${points(explanation.modelScore)}`;
}
