import type { PayloadFacts } from '@ringfence/contracts';
import type { FeatureInputs, FeatureSourceReader, ParsedEmail, ParsedUserAgent } from './feature-definition';
import { type LocalTime, localTimeOf } from './local-time';
import { factsOf, textAt, trimmed } from './payload-values';
import { ipAddressCountry, parseUserAgent } from './reference-data';

const NOT_YET = Symbol('not computed yet');
type Lazy<T> = T | typeof NOT_YET;

/**
 * The inputs of one checkpoint, with what several features share derived at most once: the
 * subject's e-mail split into its parts, the request's user agent parsed, its IP address's
 * country, its device id, the event's local time.
 */
export class FeatureSource implements FeatureSourceReader {
  private parsedEmail: Lazy<ParsedEmail | null> = NOT_YET;
  private parsedUserAgent: Lazy<ParsedUserAgent | null> = NOT_YET;
  private country: Lazy<string | null> = NOT_YET;
  private device: Lazy<string | null> = NOT_YET;
  private local: Lazy<LocalTime> = NOT_YET;

  constructor(readonly inputs: FeatureInputs) {}

  get facts(): PayloadFacts {
    return factsOf(this.inputs);
  }

  get email(): ParsedEmail | null {
    if (this.parsedEmail === NOT_YET) this.parsedEmail = splitEmail(textAt(this.inputs.subject.email));
    return this.parsedEmail;
  }

  get userAgent(): ParsedUserAgent | null {
    if (this.parsedUserAgent === NOT_YET) {
      const userAgent = trimmed(this.facts.device.userAgent);
      this.parsedUserAgent = userAgent === null ? null : parseUserAgent(userAgent);
    }
    return this.parsedUserAgent;
  }

  get ipCountry(): string | null {
    if (this.country === NOT_YET) {
      const address = trimmed(this.facts.device.ipAddress);
      this.country = address === null ? null : ipAddressCountry(address);
    }
    return this.country;
  }

  get localTime(): LocalTime {
    if (this.local === NOT_YET) this.local = localTimeOf(this.inputs.eventTimeMs, this.inputs.timeZone);
    return this.local;
  }

  get deviceId(): string | null {
    if (this.device === NOT_YET) this.device = trimmed(this.facts.device.id);
    return this.device;
  }
}

/** An address split at its last `@`; null when either side is empty. */
function splitEmail(email: string | null): ParsedEmail | null {
  if (email === null) return null;
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1) return null;
  return { localPart: email.slice(0, at), domain: email.slice(at + 1).toLowerCase() };
}
