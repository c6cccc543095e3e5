import type { SubjectType } from './types';

/** A time the API gave (epoch ms or ISO 8601) in the analyst's locale, to the second. */
export function formatTime(time: number | string | null | undefined): string {
  if (time === null || time === undefined || time === '') return '—';
  const date = new Date(time);
  if (Number.isNaN(date.getTime())) return String(time);
  return date.toLocaleString(undefined, { year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** Digits after the decimal point of a currency (ISO 4217's minor units, as the browser knows them). */
function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * An amount the API gave in minor units (docs/api.md "Amounts"): 12345 GBP is "£123.45",
 * 500 JPY is "¥500", in the analyst's locale. An unknown currency code still reads as a number.
 */
export function formatMoney(minorUnits: number | null | undefined, currency: string | null | undefined): string {
  if (minorUnits === null || minorUnits === undefined || !Number.isFinite(minorUnits)) return '—';
  const code = (currency ?? '').toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) return `${minorUnits} (minor units)`;
  const major = minorUnits / 10 ** minorDigits(code);
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: code }).format(major);
  } catch {
    return `${major.toFixed(2)} ${code}`;
  }
}

/** How long ago, roughly ("5 min", "3 h", "2 d"): the age of a case. */
export function formatAge(since: number | null | undefined, now = Date.now()): string {
  if (since === null || since === undefined) return '—';
  const minutes = Math.max(0, Math.round((now - since) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)} h`;
  return `${Math.round(minutes / 1440)} d`;
}

/**
 * A structured value (an address, a list) as one readable line: "12 High St, London, GB"; an
 * object's fields are joined in their order, keys shown only for non-address shapes.
 */
export function formatStructured(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return value.map(formatStructured).join(', ');
  const entries = Object.entries(value as Record<string, unknown>).filter(([, field]) => field !== null && field !== undefined && field !== '');
  const plain = entries.every(([, field]) => typeof field !== 'object');
  return entries
    .map(([name, field]) => {
      const text = isTimeName(name) && typeof field === 'number' ? formatTime(field) : formatStructured(field);
      return plain && ADDRESS_PARTS.has(name) ? text : `${name}: ${text}`;
    })
    .join(', ');
}

/** A field whose number is a time (epoch ms): `createdAt`, `timestamp`, `firstSeen`, `eventTime`… */
export const isTimeName = (name: string) => /(At|Time|time|timestamp|Timestamp|Seen|Date|date)$/.test(name);

const ADDRESS_PARTS = new Set(['line1', 'line2', 'address1', 'address2', 'street', 'city', 'town', 'region', 'state', 'postalCode', 'zip', 'postcode', 'country', 'countryCode', 'name']);

export function formatRatio(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${(value * 100).toFixed(1)} %`;
}

export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return formatStructured(value);
}

/** Epoch ms of an `<input type="datetime-local">` value (local time); undefined when blank or invalid. */
export function fromLocalInput(value: string): number | undefined {
  if (!value) return undefined;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? undefined : ms;
}

export interface LabelChoice {
  category: 'PAYMENT_FRAUD' | 'REFUND_ABUSE' | 'SUPPLIER_FRAUD';
  /** Every review the category takes (docs/api.md "Labels"), UNREVIEWED (clears it) last. */
  options: string[];
}

/** The reviews that exist only when the account enables them (`potentialLabelsEnabled`). */
export const POTENTIAL_REVIEWS = ['POTENTIALLY_FRAUDSTER', 'POTENTIALLY_GENUINE'];

/**
 * What an analyst decides about a subject (docs/api.md "Labels"): a supplier is FRAUDULENT or
 * GENUINE; a customer reviewed at a refund is judged on refund abuse; any other customer decision
 * is about payment fraud. The POTENTIALLY_ reviews only where the account enables them.
 */
export function labelChoiceFor(subjectType: SubjectType, checkpoint?: string, potentialEnabled = false): LabelChoice {
  if (subjectType === 'supplier') return { category: 'SUPPLIER_FRAUD', options: ['FRAUDULENT', 'GENUINE', 'UNREVIEWED'] };
  if (checkpoint === 'refund') return { category: 'REFUND_ABUSE', options: ['REFUND_ABUSE', 'NOT_REFUND_ABUSE', 'UNREVIEWED'] };
  const options = ['FRAUDSTER', 'GENUINE', ...(potentialEnabled ? POTENTIAL_REVIEWS : []), 'UNREVIEWED'];
  return { category: 'PAYMENT_FRAUD', options };
}

/**
 * What a decisive review does, said before it is applied (docs/api.md "Labels": a label decides
 * every later checkpoint of the subject). Null: no confirmation asked.
 */
export function labelConsequence(review: string, subjectType: SubjectType): string | null {
  const who = subjectType === 'supplier' ? 'this supplier' : 'this customer';
  if (review === 'GENUINE') return `GENUINE allows ${who} at every checkpoint (ALLOW by manual review), whatever the rules and the model say.`;
  if (review === 'FRAUDSTER') return `FRAUDSTER blocks ${who} at every checkpoint (PREVENT by manual review) and marks the customers linked to it as near a fraudster.`;
  if (review === 'FRAUDULENT') return `FRAUDULENT blocks ${who} at every checkpoint (PREVENT by manual review).`;
  return null;
}

/** The checkpoints of decision lists, rules and models (docs/api.md "Rules"): the server's one list. */
export { RULE_CHECKPOINTS } from '@ringfence/contracts/checkpoints';
/** The checkpoints score thresholds are set for (docs/api.md "Score thresholds"): every checkpoint. */
export { CHECKPOINTS as THRESHOLD_CHECKPOINTS } from '@ringfence/contracts/checkpoints';
