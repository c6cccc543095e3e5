/**
 * The readers every payload fact is taken with. A payload is validated, but its open objects
 * (a device, a PSP transaction's extra fields) may hold anything a client sent, so each value is
 * checked for its type, and anything else reads as absent.
 */

/** An object of a payload as the client sent it. */
export type WireObject = Readonly<Record<string, unknown>>;

/**
 * The one rule for strings that name something (an id, an e-mail, a currency): a string with at
 * least one character that is not white space, kept as sent (readers normalise it their own way).
 * An empty or space-only string names nothing, for every reader alike.
 */
export function namedText(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  // Most names start with a printable ASCII character: no need to look further (every payload's ids pass here).
  const first = value.charCodeAt(0);
  if (first > 32 && first < 127) return value;
  return value.trim() === '' ? undefined : value;
}

/**
 * A string that qualifies an identity rather than naming one (a document's jurisdiction), kept
 * exactly as sent, blank included: it is part of identities already stored.
 */
export function sentText(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function objectOf(value: unknown): WireObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as WireObject) : undefined;
}

/** The objects of an array (other items skipped); none for anything but an array. */
export function objectsOf(value: unknown): WireObject[] {
  return Array.isArray(value) ? value.map(objectOf).filter((item) => item !== undefined) : [];
}

export function finiteNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function booleanOf(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}
