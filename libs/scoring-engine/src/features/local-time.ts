/** The hour (0–23) and the day of the week (0 Sunday … 6 Saturday) of an instant, on a time zone's clock. */
export interface LocalTime {
  hour: number;
  weekday: number;
}

const WEEKDAYS: Readonly<Record<string, number>> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/**
 * One formatter per time zone, made once: building an `Intl.DateTimeFormat` costs far more than
 * formatting with it. Bounded by the IANA zones the settings accept (a few hundred).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', hourCycle: 'h23', weekday: 'short' });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * `epochMillis` on `timeZone`'s clock (daylight saving included, from the runtime's ICU data);
 * UTC when no zone is given. A zone the runtime does not know (a setting stored by a newer
 * runtime) reads as UTC rather than failing the checkpoint.
 */
export function localTimeOf(epochMillis: number, timeZone: string | null | undefined): LocalTime {
  if (timeZone === null || timeZone === undefined || timeZone === 'UTC') return utcTimeOf(epochMillis);
  let formatter: Intl.DateTimeFormat;
  try {
    formatter = formatterOf(timeZone);
  } catch {
    return utcTimeOf(epochMillis);
  }
  let hour = 0;
  let weekday = 0;
  for (const part of formatter.formatToParts(epochMillis)) {
    if (part.type === 'hour') hour = Number(part.value);
    else if (part.type === 'weekday') weekday = WEEKDAYS[part.value] ?? 0;
  }
  return { hour, weekday };
}

function utcTimeOf(epochMillis: number): LocalTime {
  const date = new Date(epochMillis);
  return { hour: date.getUTCHours(), weekday: date.getUTCDay() };
}
