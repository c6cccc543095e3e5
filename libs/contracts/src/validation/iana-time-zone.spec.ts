import { plainToInstance } from 'class-transformer';
import { IsOptional, validateSync } from 'class-validator';
import { MAX_TIME_ZONE_LENGTH, TIME_ZONE_RULE, canonicalTimeZone } from './iana-time-zone';
import { IsIanaTimeZone } from './iana-time-zone.decorator';

class TimeZoneSetting {
  @IsOptional() @IsIanaTimeZone() timeZone?: string | null;
}

/** The setting as a body is read and validated: its value afterwards and the messages of its failures. */
function read(timeZone: unknown): { value: unknown; problems: string[] } {
  const setting = plainToInstance(TimeZoneSetting, { timeZone });
  const problems = validateSync(setting).flatMap((error) => Object.values(error.constraints ?? {}).map((message) => `${error.property}: ${message}`));
  return { value: setting.timeZone, problems };
}

const NOT_ZONES: Array<[string, unknown]> = [
  ['an unknown area', 'Mars/Olympus_Mons'],
  ['an unknown city', 'Europe/Atlantis'],
  ['a UTC offset', '+01:00'],
  ['a signed hour', '-05'],
  ['a military letter', 'Z'],
  ['spaces around a name', ' Europe/London '],
  ['an empty string', ''],
  ['a path', '../../etc/passwd'],
  ['a control character', 'UTC\u0000'],
  ['a number', 1],
  ['a boolean', true],
  ['an object', { zone: 'UTC' }],
  ['an array', ['Europe/London']],
];

describe(canonicalTimeZone.name, () => {
  it.each([
    ['Europe/London', 'Europe/London'],
    ['America/New_York', 'America/New_York'],
    ['Australia/Sydney', 'Australia/Sydney'],
    ['UTC', 'UTC'],
    ['Etc/GMT+5', 'Etc/GMT+5'],
    ['Asia/Tokyo', 'Asia/Tokyo'],
  ])('accepts %s as %s', (zone, canonical) => {
    expect(canonicalTimeZone(zone)).toBe(canonical);
  });

  it('answers the canonical spelling of a name in another case', () => {
    expect(canonicalTimeZone('europe/london')).toBe('Europe/London');
    expect(canonicalTimeZone('AMERICA/NEW_YORK')).toBe('America/New_York');
    expect(canonicalTimeZone('utc')).toBe('UTC');
  });

  it('resolves a link (an old or alternative name) to a zone the runtime knows by the same rules', () => {
    const canonical = canonicalTimeZone('US/Eastern');

    expect(canonical).not.toBeNull();
    expect(canonicalTimeZone(canonical)).toBe(canonical);
    // The same instant reads the same wall-clock hour in the link and in what it resolved to.
    const hourIn = (timeZone: string) => new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(Date.UTC(2025, 6, 1, 12));
    expect(hourIn(canonical as string)).toBe(hourIn('America/New_York'));
  });

  it.each(NOT_ZONES)('refuses %s', (_case, value) => {
    expect(canonicalTimeZone(value)).toBeNull();
  });

  it(`refuses a name longer than ${MAX_TIME_ZONE_LENGTH} characters, even one of a name's form`, () => {
    expect(canonicalTimeZone(`Europe/${'L'.repeat(MAX_TIME_ZONE_LENGTH)}`)).toBeNull();
    expect(canonicalTimeZone('America/Argentina/ComodRivadavia')).not.toBeNull();
  });
});

describe(IsIanaTimeZone.name, () => {
  it('passes a zone, stored as its canonical spelling', () => {
    expect(read('europe/london')).toEqual({ value: 'Europe/London', problems: [] });
    expect(read('America/New_York')).toEqual({ value: 'America/New_York', problems: [] });
  });

  it('leaves null and absence to IsOptional', () => {
    expect(read(null)).toEqual({ value: null, problems: [] });
    expect(read(undefined)).toEqual({ value: undefined, problems: [] });
  });

  it.each(NOT_ZONES)('fails %s with one message naming the rule, and leaves the value as sent', (_case, value) => {
    expect(read(value)).toEqual({ value, problems: [`timeZone: ${TIME_ZONE_RULE}`] });
  });

  it('fails an overlong name', () => {
    expect(read('A'.repeat(MAX_TIME_ZONE_LENGTH + 1)).problems).toEqual([`timeZone: ${TIME_ZONE_RULE}`]);
  });
});
