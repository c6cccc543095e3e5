import { type PayloadFacts, payloadFacts } from '@ringfence/contracts';
import type { FeatureInputs } from './feature-definition';

/**
 * Readers of the subject's record and of the payload details only features read (3-D Secure,
 * AVS, CVV, billing country, password outcome): what a client sent, so every value is checked
 * for its type before it is used, and anything else reads as absent. What the payload names
 * comes from its facts (`factsOf`).
 */
export type Fields = Record<string, unknown>;

const EMPTY: Fields = Object.freeze({}) as Fields;

/** The object at `value`, or an empty one (never null: paths read on without checks). */
export function objectAt(value: unknown): Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : EMPTY;
}

/** The non-blank string at `value`, trimmed; null otherwise. */
export function textAt(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed.length > 0 ? trimmed : null;
}

/** The facts of a checkpoint's payload: those the caller handed over, else read once from the payload. */
export function factsOf(inputs: FeatureInputs): PayloadFacts {
  return inputs.facts ?? payloadFacts(inputs.payload);
}

/** A named text of the payload's facts (never blank), trimmed; null without one. */
export function trimmed(value: string | undefined): string | null {
  return value === undefined ? null : value.trim();
}

/** The finite number at `value`; null otherwise. */
export function numberAt(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The boolean at `value`; null otherwise. */
export function booleanAt(value: unknown): boolean | null {
  return typeof value === 'boolean' ? value : null;
}

/** `value` rounded to `digits` decimals, so feed values stay readable (0.6842 rather than 0.68421052…). */
export function rounded(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

export const HOUR_MS = 3_600_000;
