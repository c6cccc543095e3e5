/**
 * The longest time-zone name accepted. IANA's names are at most 32 characters
 * (`America/Argentina/ComodRivadavia`); the bound keeps a stored setting small whatever is sent.
 */
export const MAX_TIME_ZONE_LENGTH = 64;

export const TIME_ZONE_RULE = `must be an IANA time-zone name such as Europe/London, America/New_York or UTC (at most ${MAX_TIME_ZONE_LENGTH} characters)`;

/**
 * The form of an IANA name: a letter first, then letters, digits and `/ _ - +` (`Etc/GMT+5`).
 * It keeps out the UTC offsets (`+01:00`) that newer runtimes also accept as a time zone, so every
 * supported Node version accepts the same settings: an offset knows no daylight-saving time, and
 * the hour a merchant's customers live by does.
 */
const IANA_NAME_FORM = /^[A-Za-z][A-Za-z0-9/_+-]*$/;

/**
 * The runtime's canonical spelling of the IANA time zone `value` names (`europe/london` →
 * `Europe/London`, `utc` → `UTC`), or null when `value` is not one: not a string, longer than
 * `MAX_TIME_ZONE_LENGTH`, not of a name's form, or unknown to the runtime's time-zone database
 * (Node's full ICU). Which alias a link resolves to (`Asia/Kolkata`, `Asia/Calcutta`) is the
 * runtime's: either names the same zone.
 */
export function canonicalTimeZone(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > MAX_TIME_ZONE_LENGTH || !IANA_NAME_FORM.test(value)) return null;
  try {
    return new Intl.DateTimeFormat(undefined, { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    // RangeError: a name of the right form that no zone has.
    return null;
  }
}
