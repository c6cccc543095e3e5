import type { SubjectType } from './types';

/** A time the API gave (epoch ms or ISO 8601) in the analyst's locale, to the second. */
export function formatTime(time: number | string | null | undefined): string {
  if (time === null || time === undefined || time === '') return '—';
  const date = new Date(time);
  if (Number.isNaN(date.getTime())) return String(time);
  return date.toLocaleString(undefined, { year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function formatRatio(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${(value * 100).toFixed(1)} %`;
}

export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** `<input type="datetime-local">` value (local time, to the minute) of epoch ms, and back. */
export function toLocalInput(ms: number): string {
  const date = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return date.toISOString().slice(0, 16);
}

export function fromLocalInput(value: string): number | undefined {
  if (!value) return undefined;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? undefined : ms;
}

export interface LabelChoice {
  category: 'PAYMENT_FRAUD' | 'REFUND_ABUSE' | 'SUPPLIER_FRAUD';
  /** The review that says "fraud" first, then the one that clears the subject. */
  reviews: [string, string];
}

/**
 * What an analyst decides about a subject (docs/api.md "Labels"): a supplier is FRAUDULENT or
 * GENUINE; a customer reviewed at a refund is judged on refund abuse; any other customer decision
 * is about payment fraud.
 */
export function labelChoiceFor(subjectType: SubjectType, checkpoint?: string): LabelChoice {
  if (subjectType === 'supplier') return { category: 'SUPPLIER_FRAUD', reviews: ['FRAUDULENT', 'GENUINE'] };
  if (checkpoint === 'refund') return { category: 'REFUND_ABUSE', reviews: ['REFUND_ABUSE', 'NOT_REFUND_ABUSE'] };
  return { category: 'PAYMENT_FRAUD', reviews: ['FRAUDSTER', 'GENUINE'] };
}

/** The checkpoints of decision lists, rules and models (docs/api.md "Rules"): the server's one list. */
export { RULE_CHECKPOINTS } from '@ringfence/contracts/checkpoints';
/** The checkpoints score thresholds are set for (docs/api.md "Score thresholds"): every checkpoint. */
export { CHECKPOINTS as THRESHOLD_CHECKPOINTS } from '@ringfence/contracts/checkpoints';
