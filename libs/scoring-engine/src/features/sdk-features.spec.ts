import type { DeviceSummaryMessage } from '@ringfence/contracts';
import { compileRules, evaluateRules } from '../rules/rule-evaluation';
import { RuleEnvironments } from '../rules/rule-environments';
import { featureInputs } from '../test-support/feature-inputs.factory';
import { computeFeatures, featureDeclarations } from './feature-catalogue';
import type { FeatureInputs } from './feature-definition';
import { SDK_FEATURES } from './sdk-features';

const SDK_NAMES = SDK_FEATURES.map((feature) => feature.name);

/** A device the web SDK reported: a headless browser in Manila whose latest session pasted a card number. */
function summary(overrides: Partial<DeviceSummaryMessage> = {}): DeviceSummaryMessage {
  return {
    deviceId: 'dev-1',
    firstSeen: 1_000,
    lastSeen: 9_000,
    sessionCount: 2,
    eventCount: 7,
    eventCounts: { pageview: 4, paste: 2, 'form-submit': 1 },
    distinctCustomers: 3,
    distinctCards: 5,
    distinctIpAddresses: 2,
    distinctFingerprints: 1,
    cardFieldPastes: 1,
    lastIpAddress: '81.2.69.142',
    lastCustomerId: 'cus-1',
    webdriver: true,
    timeZone: 'Asia/Manila',
    fingerprint: 'fp-1',
    latestSession: { sessionId: 'ses-2', firstSeen: 5_000, lastSeen: 9_000, eventCounts: { pageview: 1, paste: 1 }, firstEventTime: 100_000, lastEventTime: 112_500, cardFieldPastes: 1 },
    ...overrides,
  };
}

const features = (overrides: Partial<FeatureInputs>) => computeFeatures(featureInputs({ checkpoint: 'transaction', ...overrides }));
const sdkOf = (values: Readonly<Record<string, unknown>>) => Object.fromEntries(SDK_NAMES.map((name) => [name, values[name]]));

describe('client SDK features', () => {
  it('read the device\'s summary and its latest session', () => {
    const values = features({ sdkDevice: { deviceId: 'dev-1', source: 'request', summary: summary() } });

    expect(sdkOf(values)).toEqual({
      sdkDeviceKnown: true,
      sdkWebdriver: true,
      sdkSessionCount: 2,
      sdkFingerprints: 1,
      sdkDeviceCustomerCount: 3,
      sdkDeviceCardCount: 5,
      sdkDeviceIpAddresses: 2,
      sdkCardFieldPastes: 1,
      // 81.2.69.142 is a British address (the SDK's last); Asia/Manila is the Philippines'.
      sdkTimeZoneIpMismatch: true,
      sdkSessionPageviews: 1,
      sdkSessionEvents: 2,
      sdkSessionSeconds: 12.5,
      sdkPasteCount: 1,
      sdkCardFieldPaste: true,
    });
  });

  it('are all null when there was no device to ask of, or the read model did not answer', () => {
    for (const sdkDevice of [undefined, null]) {
      expect(Object.values(sdkOf(features({ sdkDevice })))).toEqual(SDK_NAMES.map(() => null));
    }
  });

  it('say the device is unknown to the SDK, and nothing else, for a device never reported (or seen by checkpoints only)', () => {
    const checkpointsOnly = summary({ sessionCount: 0, eventCount: 0, eventCounts: {}, latestSession: null, webdriver: null, timeZone: null });
    for (const answer of [null, checkpointsOnly]) {
      const values = sdkOf(features({ sdkDevice: { deviceId: 'dev-1', source: 'subject', summary: answer } }));
      expect(values.sdkDeviceKnown).toBe(false);
      expect(Object.entries(values).filter(([name, value]) => name !== 'sdkDeviceKnown' && value !== null)).toEqual([]);
    }
  });

  it('compare the time zone with the request\'s IP address first, and say null for a zone or address of no country', () => {
    const inLondon = { device: { deviceId: 'dev-1', ipAddress: '81.2.69.142' } };
    const london = features({ payload: { timestamp: 1, ...inLondon }, sdkDevice: { deviceId: 'dev-1', source: 'request', summary: summary({ timeZone: 'Europe/London', lastIpAddress: '1.0.16.1' }) } });
    const utc = features({ sdkDevice: { deviceId: 'dev-1', source: 'request', summary: summary({ timeZone: 'UTC' }) } });
    const noAddress = features({ sdkDevice: { deviceId: 'dev-1', source: 'request', summary: summary({ lastIpAddress: null }) } });
    const unreported = features({ sdkDevice: { deviceId: 'dev-1', source: 'request', summary: summary({ webdriver: null, timeZone: null }) } });

    expect(london.sdkTimeZoneIpMismatch).toBe(false);
    expect([utc.sdkTimeZoneIpMismatch, noAddress.sdkTimeZoneIpMismatch, unreported.sdkTimeZoneIpMismatch, unreported.sdkWebdriver]).toEqual([null, null, null, null]);
  });

  it('count a latest session without pastes or page views as none, and one kept before its times as of unknown length', () => {
    const quiet = summary({ webdriver: false, latestSession: { sessionId: 's', firstSeen: 1, lastSeen: 2, eventCounts: { click: 3 } } });
    const values = features({ sdkDevice: { deviceId: 'dev-1', source: 'request', summary: quiet } });

    expect([values.sdkWebdriver, values.sdkSessionPageviews, values.sdkPasteCount, values.sdkCardFieldPaste, values.sdkSessionSeconds]).toEqual([false, 0, 0, false, null]);
  });

  it('are computed at every checkpoint that knows a device or a customer, not at payouts', () => {
    for (const checkpoint of ['customer', 'registration', 'refund', 'voucherRedemption', 'transaction'] as const) {
      expect(featureDeclarations(checkpoint).map((feature) => feature.name)).toEqual(expect.arrayContaining(SDK_NAMES));
    }
    expect(featureDeclarations('payout').map((feature) => feature.name)).not.toContain('sdkWebdriver');
  });
});

describe('a rule over the client SDK features', () => {
  const rule = { ruleId: 7, ruleVersion: 1, name: 'headless', description: 'automated browser', checkpoint: 'pspBeforeAuth', expression: 'features.sdkWebdriver == true || features.sdkCardFieldPaste == true', action: 'REVIEW', state: 'active', createdAt: 0, createdBy: 'key_a' } as const;
  const environment = new RuleEnvironments().of('pspBeforeAuth');
  const evaluate = (values: Readonly<Record<string, unknown>>) =>
    evaluateRules(compileRules(environment, [rule]).compiled, environment.context({ payload: {}, features: values as never, network: null, labels: {}, lookup: {}, score: 0 }));

  it('type-checks against the catalogue and triggers on a headless browser, not on an unknown device (null)', () => {
    expect(environment.check(rule.expression)).toMatchObject({ valid: true });
    expect(evaluate(features({ sdkDevice: { deviceId: 'dev-1', source: 'request', summary: summary() } })).activeAction).toBe('REVIEW');
    expect(evaluate(features({ sdkDevice: { deviceId: 'dev-1', source: 'request', summary: summary({ webdriver: false, latestSession: null }) } })).triggered).toEqual([]);
    expect(evaluate(features({ sdkDevice: null })).triggered).toEqual([]);
  });
});
