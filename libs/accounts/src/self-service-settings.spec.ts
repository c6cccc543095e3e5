import {
  OPERATOR_ONLY_SETTINGS,
  SELF_SERVICE_SETTINGS,
  SETTING_CHANGED_BY,
  operatorOnlySettingsIn,
  ownAccountSettings,
  selfServiceSettingsChange,
} from './self-service-settings';

describe('SETTING_CHANGED_BY', () => {
  it('lets an account change its thresholds, time zone, callbacks and allowed origins, and keeps every other setting the operator\'s', () => {
    expect([...SELF_SERVICE_SETTINGS].sort()).toEqual(['allowedOrigins', 'callbackSecret', 'callbackUrl', 'scoreThresholds', 'testAllowedOrigins', 'testCallbackSecret', 'testCallbackUrl', 'timeZone']);
    expect(OPERATOR_ONLY_SETTINGS).toEqual(expect.arrayContaining(['potentialLabelsEnabled', 'voucherAbuseEnabled', 'voucherTypes', 'defaultAction', 'transactionOptimisation']));
    expect([...SELF_SERVICE_SETTINGS, ...OPERATOR_ONLY_SETTINGS].sort()).toEqual(Object.keys(SETTING_CHANGED_BY).sort());
  });
});

describe(operatorOnlySettingsIn.name, () => {
  it('names each operator-only setting sent, null included, and nothing else', () => {
    expect(operatorOnlySettingsIn({ scoreThresholds: null, potentialLabelsEnabled: true, voucherTypes: null, surprise: 1 })).toEqual(['potentialLabelsEnabled', 'voucherTypes']);
    expect(operatorOnlySettingsIn({ callbackUrl: 'https://a.example/', defaultAction: undefined })).toEqual([]);
  });
});

describe(selfServiceSettingsChange.name, () => {
  it('keeps the self-service settings sent (null: unset) and drops the rest', () => {
    const change = { scoreThresholds: null, callbackUrl: 'https://a.example/', timeZone: 'Asia/Tokyo', potentialLabelsEnabled: true } as Parameters<typeof selfServiceSettingsChange>[0];
    expect(selfServiceSettingsChange(change)).toEqual({ scoreThresholds: null, callbackUrl: 'https://a.example/', timeZone: 'Asia/Tokyo' });
  });
});

describe(ownAccountSettings.name, () => {
  it('always shows the self-service settings, whether a secret is set and whether the POTENTIALLY_ reviews are on', () => {
    expect(ownAccountSettings({})).toEqual({
      scoreThresholds: null,
      callbackUrl: null,
      callbackSecretSet: false,
      testCallbackUrl: null,
      testCallbackSecretSet: false,
      potentialLabelsEnabled: false,
      timeZone: null,
      allowedOrigins: [],
      testAllowedOrigins: [],
    });
  });

  it('shows the time zone set, and null (UTC) once it was reset', () => {
    expect(ownAccountSettings({ timeZone: 'Europe/London' })).toMatchObject({ timeZone: 'Europe/London' });
    expect(ownAccountSettings({ timeZone: null })).toMatchObject({ timeZone: null });
  });

  it('shows the stored settings but never a callback secret', () => {
    const secret = 'a-secret-of-16-chars';
    const testSecret = 'a-test-secret-of-16';
    const shown = ownAccountSettings({
      callbackUrl: 'https://a.example/',
      callbackSecret: secret,
      testCallbackUrl: 'https://staging.a.example/',
      testCallbackSecret: testSecret,
      scoreThresholds: { customer: { review: 60, prevent: 85 } },
      potentialLabelsEnabled: true,
      defaultAction: 'REVIEW',
      timeZone: 'America/New_York',
      testAllowedOrigins: ['http://127.0.0.1:8080'],
    });

    expect(shown).toEqual({
      callbackUrl: 'https://a.example/',
      callbackSecretSet: true,
      testCallbackUrl: 'https://staging.a.example/',
      testCallbackSecretSet: true,
      scoreThresholds: { customer: { review: 60, prevent: 85 } },
      potentialLabelsEnabled: true,
      defaultAction: 'REVIEW',
      timeZone: 'America/New_York',
      allowedOrigins: [],
      testAllowedOrigins: ['http://127.0.0.1:8080'],
    });
    expect(JSON.stringify(shown)).not.toContain(secret);
    expect(JSON.stringify(shown)).not.toContain(testSecret);
  });

  it('says no secret once it was cleared', () => {
    expect(ownAccountSettings({ callbackUrl: null, callbackSecret: null })).toMatchObject({ callbackUrl: null, callbackSecretSet: false });
  });
});
