import { DAY, HEADLESS_CHROME, HOUR, IPHONE_SAFARI, IP_IN, NOW, featureInputs, quietNetwork, storedSubject } from '../test-support/feature-inputs.factory';
import { computeFeatures } from './feature-catalogue';
import type { FeatureInputs } from './feature-definition';

const featuresOf = (overrides: Partial<FeatureInputs>) => computeFeatures(featureInputs(overrides));
const customerWith = (subject: Record<string, unknown>, overrides: Partial<FeatureInputs> = {}) => featuresOf({ subject, ...overrides });

describe('identity features', () => {
  it('reads presence and verification of contact details, verification null without the detail', () => {
    expect(customerWith({ email: 'a@b.example', emailVerifiedTime: NOW - DAY, telephone: ' ' })).toMatchObject({
      hasEmail: true,
      emailVerified: true,
      hasTelephone: false,
      telephoneVerified: null,
      hasName: false,
    });
    expect(customerWith({ familyName: 'Lovelace' })).toMatchObject({ hasName: true, hasEmail: false, emailVerified: null });
  });

  it('gives the account age in hours at the event, 0 at a registration without one, null elsewhere without one', () => {
    expect(customerWith({ registrationTime: NOW - 36 * HOUR }).accountAgeHours).toBe(36);
    expect(customerWith({ registrationTime: NOW + HOUR }).accountAgeHours).toBe(0);
    expect(customerWith({}).accountAgeHours).toBeNull();
    expect(featuresOf({ checkpoint: 'registration' }).accountAgeHours).toBe(0);
  });

  it('recognises disposable mailboxes offline, subdomains included, and leaves ordinary providers and privacy relays alone', () => {
    const disposable = (email: string) => customerWith({ email }).emailDisposable;
    expect(disposable('x@mailinator.com')).toBe(true);
    expect(disposable('x@MAILINATOR.com')).toBe(true);
    expect(disposable('x@inbox.mailinator.com')).toBe(true);
    expect(disposable('x@gmail.com')).toBe(false);
    expect(disposable('x@duck.com')).toBe(false);
    expect(disposable('not an address')).toBeNull();
    expect(customerWith({ email: 'Ada@Example.COM' }).emailDomain).toBe('example.com');
  });

  it('measures digits in the local part', () => {
    expect(customerWith({ email: '83920193x@mail.test' }).emailLocalPartDigitRatio).toBe(0.889);
    expect(customerWith({ email: 'ada@example.com' }).emailLocalPartDigitRatio).toBe(0);
    expect(customerWith({}).emailLocalPartDigitRatio).toBeNull();
  });

  it('finds the given or family name in the local part, accents and punctuation aside', () => {
    const matches = (email: string, name: Record<string, unknown>) => customerWith({ email, ...name }).emailMatchesName;
    expect(matches('ada.lovelace@example.com', { name: 'Ada Lovelace' })).toBe(true);
    expect(matches('a.lovelace1815@example.com', { givenName: 'Ada', familyName: 'Lovelace' })).toBe(true);
    expect(matches('zoe.obrien@example.com', { name: "Zoë O'Brien" })).toBe(true);
    expect(matches('x83920193@example.com', { name: 'Ada Lovelace' })).toBe(false);
    // Too short to tell anything, or no name at all: not computable.
    expect(matches('al@example.com', { name: 'Al Wu' })).toBeNull();
    expect(matches('ada@example.com', {})).toBeNull();
  });

  it('flags an unforgiven chargeback on a customer', () => {
    expect(customerWith({ chargebacks: { 'cb-1': { forgiven: false } } }).unforgivenChargeback).toBe(true);
    expect(customerWith({ chargebacks: { 'cb-1': { forgiven: true } } }).unforgivenChargeback).toBe(false);
  });
});

describe('device features', () => {
  const withDevice = (device: Record<string, unknown>) => featuresOf({ payload: { device } });

  it('parses the user agent: browser, OS, device type, and bots, scripts and headless browsers', () => {
    expect(withDevice({ userAgent: IPHONE_SAFARI })).toMatchObject({ userAgentBrowser: 'Safari', userAgentOs: 'iOS', userAgentDeviceType: 'mobile', userAgentBot: false });
    expect(withDevice({ userAgent: HEADLESS_CHROME }).userAgentBot).toBe(true);
    expect(withDevice({ userAgent: 'curl/8.4.0' }).userAgentBot).toBe(true);
    expect(withDevice({ userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' })).toMatchObject({ userAgentBot: true, userAgentDeviceType: 'bot' });
    expect(withDevice({})).toMatchObject({ userAgentBrowser: null, userAgentBot: null });
  });

  it('places an IPv4 address in its country (alpha-3), and leaves IPv6, private and malformed addresses unknown', () => {
    expect(withDevice({ ipAddress: IP_IN.GBR })).toMatchObject({ hasIpAddress: true, ipCountry: 'GBR' });
    expect(withDevice({ ipAddress: `::ffff:${IP_IN.NGA}` }).ipCountry).toBe('NGA');
    expect(withDevice({ ipAddress: '2001:db8::1' }).ipCountry).toBeNull();
    expect(withDevice({ ipAddress: '10.1.2.3' }).ipCountry).toBeNull();
    expect(withDevice({ ipAddress: '999.1.1.1' }).ipCountry).toBeNull();
    expect(withDevice({})).toMatchObject({ hasIpAddress: false, ipCountry: null });
  });

  it("compares the request's device with the one the subject's record held before this event", () => {
    const transaction = (deviceId: string | undefined, earlier?: Record<string, unknown>, request: Record<string, unknown> = {}) =>
      featuresOf({ checkpoint: 'transaction', payload: deviceId ? { device: { deviceId } } : {}, ...storedSubject(request, earlier) }).deviceNewForSubject;
    expect(transaction('dev-new', { lastDeviceId: 'dev-home' })).toBe(true);
    expect(transaction('dev-home', { lastDeviceId: 'dev-home' })).toBe(false);
    expect(transaction(undefined, { lastDeviceId: 'dev-home' })).toBeNull();
    // Nothing on record before, or only what this very request wrote: it cannot tell.
    expect(transaction('dev-new', { email: 'a@b.example' })).toBeNull();
    expect(transaction('dev-new', { lastDeviceId: 'dev-home' }, { lastDeviceId: 'dev-new' })).toBeNull();
  });

  it('knows a device from the request or the record', () => {
    expect(featuresOf({ payload: { deviceId: 'dev-1' } }).hasDevice).toBe(true);
    expect(customerWith({ lastDeviceId: 'dev-1' }).hasDevice).toBe(true);
    expect(featuresOf({}).hasDevice).toBe(false);
  });
});

describe('payment features', () => {
  const transaction = (payload: Record<string, unknown>) => featuresOf({ checkpoint: 'transaction', payload: { transaction: { transactionId: 'tx-1' }, ...payload } });

  it("compares the card's issuing country with the IP address's, and tells a neighbour from another continent", () => {
    const paidFrom = (ipAddress: string) => transaction({ device: { ipAddress }, paymentMethod: { countryIssued: 'GBR' } });
    expect(paidFrom(IP_IN.GBR)).toMatchObject({ cardCountry: 'GBR', cardIpCountryMismatch: false, cardIpDifferentContinent: false });
    expect(paidFrom(IP_IN.FRA)).toMatchObject({ cardIpCountryMismatch: true, cardIpDifferentContinent: false });
    expect(paidFrom(IP_IN.NGA)).toMatchObject({ cardIpCountryMismatch: true, cardIpDifferentContinent: true });
    expect(transaction({ paymentMethod: { countryIssued: 'GBR' } })).toMatchObject({ cardIpCountryMismatch: null, cardIpDifferentContinent: null });
    expect(transaction({ device: { ipAddress: IP_IN.GBR }, billingAddress: { country: 'USA' } }).billingIpCountryMismatch).toBe(true);
  });

  it('reads the card checks, 3-D Secure and declines', () => {
    const checked = transaction({
      transaction: { transactionId: 'tx-1', cvvResultCode: 'no_match', avsResultCode: { postalCode: 'STRONG_MATCH', street: 'NO_MATCH' }, declineCode: 'LOST_OR_STOLEN', success: false },
      threeds: { transStatus: 'N', liabilityShifted: false },
    });
    expect(checked).toMatchObject({
      cvvResult: 'NO_MATCH',
      cvvMismatch: true,
      avsMismatch: true,
      threeDsAttempted: true,
      threeDsTransStatus: 'N',
      threeDsAuthenticated: false,
      threeDsFailed: true,
      threeDsLiabilityShifted: false,
      declineCode: 'LOST_OR_STOLEN',
      declined: true,
      declineCodeFraud: true,
    });
    expect(transaction({ transaction: { transactionId: 'tx-1', declineCode: 'INSUFFICIENT_FUNDS' } })).toMatchObject({ declined: true, declineCodeFraud: false });
    expect(transaction({})).toMatchObject({ cvvMismatch: null, avsMismatch: null, threeDsAttempted: false, threeDsFailed: null, declined: false, declineCodeFraud: null });
  });

  it('gives the amount in major units of its own currency, and judges it large against that currency only', () => {
    const amount = (amount: number, currency?: string) => transaction({ transaction: { transactionId: 'tx-1', amount, currency } });
    expect(amount(1999, 'gbp')).toMatchObject({ currency: 'GBP', amountMajorUnits: 19.99, amountLarge: false });
    expect(amount(1999, 'JPY').amountMajorUnits).toBe(1999);
    expect(amount(1999, 'KWD').amountMajorUnits).toBe(1.999);
    expect(amount(100_000, 'GBP')).toMatchObject({ amountLarge: true, amountLargeRatio: 1 });
    expect(amount(120_000, 'JPY')).toMatchObject({ amountLarge: false, amountLargeRatio: 0.8 });
    expect(amount(10_000_000)).toMatchObject({ currency: null, amountMajorUnits: null, amountLarge: null });
    expect(amount(10_000_000, 'XAU')).toMatchObject({ amountLarge: null, amountLargeRatio: null });
  });

  it('reads the flags of the cards money goes to', () => {
    const refund = featuresOf({ checkpoint: 'refund', payload: { paymentMethods: [{ methodType: 'card', virtualCard: true, corporateCard: false }, { methodType: 'credit' }] } });
    expect(refund).toMatchObject({ cardVirtual: true, cardCorporate: false });
    expect(featuresOf({ checkpoint: 'payout', payload: { paymentMethod: { methodType: 'bankAccount' } } })).toMatchObject({ cardVirtual: null, cardCorporate: null });
  });
});

describe('refund, payout, registration and voucher features', () => {
  it('compares a refund with its order within one currency', () => {
    const refund = (refundFields: Record<string, unknown>, order: Record<string, unknown>) =>
      featuresOf({ checkpoint: 'refund', payload: { refund: refundFields, order: { creationTime: NOW - 48 * HOUR, ...order } } });
    expect(refund({ amount: 3000, currency: 'GBP' }, { price: 1000, currency: 'GBP' })).toMatchObject({ refundToOrderRatio: 3, refundExceedsOrder: true, orderAgeHours: 48 });
    expect(refund({ amount: 500 }, { price: 1000, currency: 'GBP' })).toMatchObject({ refundToOrderRatio: 0.5, refundExceedsOrder: false, currency: 'GBP', amountMajorUnits: 5 });
    expect(refund({ amount: 500, currency: 'EUR' }, { price: 1000, currency: 'GBP' })).toMatchObject({ refundToOrderRatio: null, refundExceedsOrder: null });
  });

  it('tells a supplier first seen with this payout from one known before it, and a large first payout', () => {
    const payout = (totalNetAmount: number, earlier?: Record<string, unknown>) =>
      featuresOf({
        checkpoint: 'payout',
        subjectKind: 'supplier',
        payload: { payout: { earnings: { currency: 'GBP', totalNetAmount }, notificationEmail: 'other@example.com' }, paymentMethod: { methodType: 'card' } },
        ...storedSubject({ name: 'Sam Carter', email: 'sam@example.com' }, earlier),
      });
    expect(payout(800_000)).toMatchObject({ payoutSupplierFirstSeen: true, amountLarge: true, largePayoutToNewSupplier: true, payoutHasPaymentMethod: true, payoutNotificationEmailMatchesSupplier: false });
    expect(payout(10_000)).toMatchObject({ payoutSupplierFirstSeen: true, largePayoutToNewSupplier: false });
    expect(payout(800_000, { registrationTime: NOW - 300 * DAY })).toMatchObject({ payoutSupplierFirstSeen: false, largePayoutToNewSupplier: false });
    // The same fields re-sent by the payout: nothing older is left to prove the supplier known.
    expect(payout(800_000, { name: 'Sam Carter', email: 'sam@example.com' }).payoutSupplierFirstSeen).toBe(true);
  });

  it('reads the registration outcome and the breached-credentials verdict', () => {
    const registration = featuresOf({
      checkpoint: 'registration',
      payload: { registration: { success: false, registrationMechanism: { password: { failureReason: 'password_too_simple' } } }, credentialStatus: { usernameBreached: false, passwordBreached: true } },
    });
    expect(registration).toMatchObject({ registrationFailed: true, passwordTooSimple: true, credentialsBreached: true });
    expect(featuresOf({ checkpoint: 'registration' })).toMatchObject({ registrationFailed: null, passwordTooSimple: null, credentialsBreached: null });
  });

  it("records a voucher redemption's network, false abuse when not asked", () => {
    expect(featuresOf({ checkpoint: 'voucherRedemption', voucherNetwork: { uses: 3, threshold: 3, abuse: true } })).toMatchObject({ voucherNetworkUses: 3, voucherAbuseThreshold: 3, voucherAbuse: true });
    expect(featuresOf({ checkpoint: 'voucherRedemption' })).toMatchObject({ voucherNetworkUses: null, voucherAbuseThreshold: null, voucherAbuse: false });
    expect(featuresOf({})).not.toHaveProperty('voucherAbuse');
  });
});

describe('network and lookup features', () => {
  it("names the graph's answer, every value null when it did not answer", () => {
    const network = quietNetwork({ hopsToFraud: 2, networkGrowthRate: 1.5, maxOtherCustomers: { device: 1, card: 2, email: 3, phone: 4 } });
    expect(featuresOf({ network })).toMatchObject({
      networkAnswered: true,
      networkHopsToFraud: 2,
      networkGrowthRate: 1.5,
      networkSharedDeviceCustomers: 1,
      networkSharedCardCustomers: 2,
      networkSharedEmailCustomers: 3,
      networkSharedPhoneCustomers: 4,
    });
    expect(featuresOf({ network: null })).toMatchObject({ networkAnswered: false, networkHopsToFraud: null, networkSharedCardCustomers: null });
  });

  it("gives the merchant's fraud rate at the checkpoints that name a merchant, null when the request names none or the graph did not answer", () => {
    const network = quietNetwork({ merchant: { customers: 4, fraudCustomers: 1, fraudRate: 0.25 } });
    for (const checkpoint of ['transaction', 'refund'] as const) {
      expect(featuresOf({ checkpoint, network })).toMatchObject({ merchantCustomers: 4, merchantFraudCustomers: 1, merchantFraudRate: 0.25 });
      expect(featuresOf({ checkpoint, network: quietNetwork() })).toMatchObject({ merchantCustomers: null, merchantFraudRate: null });
      expect(featuresOf({ checkpoint, network: null })).toMatchObject({ merchantFraudRate: null });
    }
    expect(featuresOf({ checkpoint: 'customer', network })).not.toHaveProperty('merchantFraudRate');
  });

  it("carries the lookup's features as they are", () => {
    const lookup = { ...featureInputs().lookup, knownFraudIndicators: 1, lookupConsortiumAccounts: 2, lookupConsortiumLastSeen: NOW - HOUR, lookupConsortiumLastSeenHoursAgo: 1 };
    expect(featuresOf({ lookup })).toMatchObject({ knownFraudIndicators: 1, lookupConsortiumAccounts: 2, lookupConsortiumLastSeen: NOW - HOUR, lookupConsortiumLastSeenHoursAgo: 1 });
  });
});
