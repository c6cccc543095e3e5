/** What the first customer model looks at. Names spell out the signal. */
export interface CustomerFeatures {
  hasEmail: boolean;
  emailVerified: boolean;
  hasTelephone: boolean;
  telephoneVerified: boolean;
  /** Hours since registration at the payload's time; null when the registration time is unknown. */
  accountAgeHours: number | null;
  hasName: boolean;
  hasDevice: boolean;
  /** The email's domain looks machine-made: digits-heavy local part, e.g. `x83920193@…`. */
  emailLocalPartDigitRatio: number;
}

interface CustomerFields {
  email?: unknown;
  emailVerifiedTime?: unknown;
  telephone?: unknown;
  telephoneVerifiedTime?: unknown;
  registrationTime?: unknown;
  name?: unknown;
  givenName?: unknown;
  familyName?: unknown;
}

const present = (value: unknown) => typeof value === 'string' && value.trim().length > 0;

/** Features of a customer as stored (merged with the request), at time `nowMillis`. */
export function extractCustomerFeatures(customer: CustomerFields, hasDevice: boolean, nowMillis: number): CustomerFeatures {
  const email = present(customer.email) ? String(customer.email) : '';
  const localPart = email.split('@')[0] ?? '';
  const digits = localPart.replace(/\D/g, '').length;
  const registrationTime = typeof customer.registrationTime === 'number' ? customer.registrationTime : null;
  return {
    hasEmail: email.length > 0,
    emailVerified: typeof customer.emailVerifiedTime === 'number',
    hasTelephone: present(customer.telephone),
    telephoneVerified: typeof customer.telephoneVerifiedTime === 'number',
    accountAgeHours: registrationTime === null ? null : Math.max(0, (nowMillis - registrationTime) / 3_600_000),
    hasName: present(customer.name) || present(customer.givenName) || present(customer.familyName),
    hasDevice,
    emailLocalPartDigitRatio: localPart.length === 0 ? 0 : digits / localPart.length,
  };
}
